/// Counters that bound what HTTP clients can hold: open connections, /metrics responses in flight and pages
/// for people in flight, each overall and per client address.
final class HTTPLimits: Sendable {
    private let connections: ClientSlots
    private let scrapes: ClientSlots
    private let pages: ClientSlots
    let options: HTTPEndpointOptions

    init(_ options: HTTPEndpointOptions) {
        self.options = options
        connections = ClientSlots(total: options.maxConnections, perClient: max(options.maxConnectionsPerClient, 0))
        scrapes = ClientSlots(total: options.maxScrapes, perClient: options.maxScrapesPerClient)
        pages = ClientSlots(total: options.maxPages, perClient: options.maxPagesPerClient)
    }

    /// Counts a new connection from `client`; false when the total or that client's cap is reached (the
    /// caller closes it).
    func openConnection(client: String) -> Bool { connections.take(client: client) }

    /// A connection closed (only those `openConnection` admitted register this).
    func closeConnection(client: String) { connections.give(client: client) }

    /// Admits one more /metrics response for `client`, or false when enough are in flight.
    func startScrape(client: String) -> Bool { scrapes.take(client: client) }

    /// A /metrics response finished or failed.
    func endScrape(client: String) { scrapes.give(client: client) }

    /// Admits one more page for people (`/`, `/targets/NAME`) for `client`, or false when enough are in flight.
    func startPage(client: String) -> Bool { pages.take(client: client) }

    /// A page finished or failed.
    func endPage(client: String) { pages.give(client: client) }
}
