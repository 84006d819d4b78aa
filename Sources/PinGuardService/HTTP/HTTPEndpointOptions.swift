import Foundation

/// How the HTTP endpoint of `pinguard serve` is exposed and what each client may hold.
public struct HTTPEndpointOptions: Sendable, Equatable {
    /// `--web.enable-lifecycle`: `POST /-/reload` reloads; without it the route answers 403.
    public var enableLifecycle = false
    /// `--web.config.file`: the exporter-toolkit web configuration (TLS, basic auth, headers).
    public var webConfigFile: String?
    /// `--web.read-header-timeout`: seconds a client has to send a complete request head, counted from
    /// the connection's start or the end of the previous response, however slowly the bytes trickle in.
    public var readHeaderTimeout: Double = 10
    /// `--web.write-timeout`: seconds a response may take to be sent; a client that stops reading is
    /// disconnected, which frees its /metrics slot.
    public var writeTimeout: Double = 30
    /// `--web.max-connections-per-client`: connections one client address may hold (0: no cap).
    public var maxConnectionsPerClient = 16
    /// A connection with no read and no write for this long is closed between requests: 60 s, or
    /// `PINGUARD_HTTP_IDLE_TIMEOUT` seconds.
    public var idleTimeout: Double = HTTPEndpointOptions.idleTimeoutFromEnvironment
    /// Connections served at once; more are closed on accept, so file descriptors stay for the probes.
    public var maxConnections = 256
    /// /metrics responses rendered or being sent at once (each holds a whole exposition).
    public var maxScrapes = 4
    /// /metrics responses one client address may have in flight, so that no single client can take
    /// every slot.
    public var maxScrapesPerClient = 2
    /// Pages for people (`/`, `/targets/NAME`) rendered or being sent at once, on a thread of their own
    /// apart from /metrics, so that no number of page requests delays a scrape.
    public var maxPages = 2
    /// Pages one client address may have in flight.
    public var maxPagesPerClient = 1
    /// Largest request body accepted (413 beyond it, decided from `Content-Length` before reading).
    public var maxBody = 64 * 1024

    /// The defaults.
    public init() {}

    static var idleTimeoutFromEnvironment: Double {
        let seconds = ProcessInfo.processInfo.environment["PINGUARD_HTTP_IDLE_TIMEOUT"].flatMap(Double.init) ?? 60
        return max(seconds, 0.1)
    }
}
