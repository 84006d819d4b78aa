/// The exporter-toolkit web configuration (`--web.config.file`) that every Prometheus exporter accepts:
/// TLS, basic authentication and extra response headers.
public struct WebConfig: Sendable, Equatable {
    /// `tls_server_config`; nil (or no `cert_file` and `key_file`) serves plain HTTP.
    public var tls: WebTLSConfig?
    /// `basic_auth_users`: user name to bcrypt hash; empty means no authentication.
    public var basicAuthUsers: [String: String] = [:]
    /// `http_server_config.headers`, added to every response.
    public var headers: [(String, String)] = []
    /// What unknown users are checked against: a hash no password matches, of the highest cost among
    /// `basicAuthUsers`, so that an unknown name is answered as slowly as a known one.
    public var unknownUserHash = BcryptHash.dummy(cost: 10)

    /// An empty configuration: plain HTTP, no authentication.
    public init() {}

    /// Equal when every setting is equal.
    public static func == (a: WebConfig, b: WebConfig) -> Bool {
        a.tls == b.tls && a.basicAuthUsers == b.basicAuthUsers
            && a.headers.map { [$0.0, $0.1] } == b.headers.map { [$0.0, $0.1] }
    }
}
