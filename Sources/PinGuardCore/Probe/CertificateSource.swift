/// Where a certificate of the evaluated chain came from.
public enum CertificateSource: String, Sendable, Codable {
    /// Sent by the server.
    case served
    /// Added from the trust store while building the verified chain (usually the root).
    case store
    /// Downloaded by the client from the caIssuers URL of the certificate below it (Chrome, Apple).
    case fetched
}
