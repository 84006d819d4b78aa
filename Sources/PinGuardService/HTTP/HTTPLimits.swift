import NIOConcurrencyHelpers

/// Counters that bound what HTTP clients can hold: open connections, overall and per client address, and
/// /metrics responses in flight, overall and per client address.
final class HTTPLimits: Sendable {
    private struct Counts {
        var connections = 0
        var connectionsByClient: [String: Int] = [:]
        var scrapes = 0
        var scrapesByClient: [String: Int] = [:]
    }

    private let counts = NIOLockedValueBox(Counts())
    let options: HTTPEndpointOptions

    init(_ options: HTTPEndpointOptions) { self.options = options }

    /// Counts a new connection from `client`; false when the total or that client's cap is reached (the
    /// caller closes it).
    func openConnection(client: String) -> Bool {
        counts.withLockedValue { c in
            guard c.connections < options.maxConnections else { return false }
            let mine = c.connectionsByClient[client, default: 0]
            if options.maxConnectionsPerClient > 0 && mine >= options.maxConnectionsPerClient { return false }
            c.connections += 1
            c.connectionsByClient[client] = mine + 1
            return true
        }
    }

    /// A connection closed (only those `openConnection` admitted register this).
    func closeConnection(client: String) {
        counts.withLockedValue { c in
            c.connections -= 1
            Self.decrement(&c.connectionsByClient, client)
        }
    }

    /// Admits one more /metrics response for `client`, or false when enough are in flight.
    func startScrape(client: String) -> Bool {
        counts.withLockedValue { c in
            let mine = c.scrapesByClient[client, default: 0]
            guard c.scrapes < options.maxScrapes, mine < options.maxScrapesPerClient else { return false }
            c.scrapes += 1
            c.scrapesByClient[client] = mine + 1
            return true
        }
    }

    /// A /metrics response finished or failed.
    func endScrape(client: String) {
        counts.withLockedValue { c in
            c.scrapes -= 1
            Self.decrement(&c.scrapesByClient, client)
        }
    }

    /// Drops a client's entry at zero, so the dictionaries do not grow with every address ever seen.
    private static func decrement(_ counts: inout [String: Int], _ client: String) {
        let left = counts[client, default: 1] - 1
        counts[client] = left > 0 ? left : nil
    }
}
