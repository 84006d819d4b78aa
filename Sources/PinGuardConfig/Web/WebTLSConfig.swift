/// `tls_server_config` of a web configuration, with paths resolved against the file's folder.
public struct WebTLSConfig: Sendable, Equatable {
    /// exporter-toolkit's `client_auth_type` values (Go's `tls.ClientAuthType`).
    public enum ClientAuth: String, Sendable, CaseIterable {
        case noClientCert = "NoClientCert"
        case requestClientCert = "RequestClientCert"
        case requireAnyClientCert = "RequireAnyClientCert"
        case verifyClientCertIfGiven = "VerifyClientCertIfGiven"
        case requireAndVerifyClientCert = "RequireAndVerifyClientCert"

        /// Whether presented client certificates are checked against `client_ca_file`.
        public var verifies: Bool { self == .verifyClientCertIfGiven || self == .requireAndVerifyClientCert }
    }

    /// `min_version` / `max_version` values.
    public enum Version: String, Sendable, CaseIterable {
        case tls10 = "TLS10"
        case tls11 = "TLS11"
        case tls12 = "TLS12"
        case tls13 = "TLS13"
    }

    /// `cert_file`: the server certificate chain (PEM).
    public var certFile: String
    /// `key_file`: its private key (PEM).
    public var keyFile: String
    /// `client_auth_type` (default NoClientCert).
    public var clientAuth: ClientAuth = .noClientCert
    /// `client_ca_file`: CAs that client certificates must chain to.
    public var clientCAFile: String?
    /// `min_version` (default TLS12, as exporter-toolkit).
    public var minVersion: Version = .tls12
    /// `max_version` (default: the newest supported).
    public var maxVersion: Version?

    /// A configuration serving `certFile` with `keyFile`.
    public init(certFile: String, keyFile: String) {
        self.certFile = certFile
        self.keyFile = keyFile
    }
}
