/// Certificates on disk judged like a served chain (`files:` in the configuration): a renewal a deployment
/// has staged, or a mounted Kubernetes secret, so an alert fires before the file is served.
public struct FileTarget: Sendable, Equatable {
    /// PEM bundle or DER file, or a glob of them (as written; relative to the config's folder).
    public var path: String
    /// The server name the chain will be served for: policy selection and hostname verification.
    public var host: String
    /// Environment whose policies apply.
    public var environment: String
    /// Policy sets named explicitly; nil = every loaded set that covers the host.
    public var policySets: [String]?

    /// Creates a file target.
    public init(path: String, host: String, environment: String = "prod", policySets: [String]? = nil) {
        self.path = path
        self.host = host
        self.environment = environment
        self.policySets = policySets
    }

    /// The target a file matched by `path` is judged as: named by the file's path.
    public func target(file: String) -> Target {
        Target(host: host, port: 443, environment: environment, name: file, policySets: policySets)
    }
}
