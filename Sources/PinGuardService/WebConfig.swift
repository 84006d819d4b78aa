/// The exporter-toolkit web configuration (`--web.config.file`) that every Prometheus exporter accepts:
/// TLS, basic authentication and extra response headers.
public struct WebConfig: Sendable, Equatable {
    /// `tls_server_config`; nil (or no `cert_file` and `key_file`) serves plain HTTP.
    public var tls: WebTLSConfig?
    /// `basic_auth_users`: user name to bcrypt hash; empty means no authentication.
    public var basicAuthUsers: [String: String] = [:]
    /// `http_server_config.headers`, added to every response.
    public var headers: [(String, String)] = []

    /// An empty configuration: plain HTTP, no authentication.
    public init() {}

    /// Equal when every setting is equal.
    public static func == (a: WebConfig, b: WebConfig) -> Bool {
        a.tls == b.tls && a.basicAuthUsers == b.basicAuthUsers
            && a.headers.map { [$0.0, $0.1] } == b.headers.map { [$0.0, $0.1] }
    }
}
