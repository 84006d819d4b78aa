import Foundation

/// One Signed Certificate Timestamp as the server (or a certificate file) presented it, with the result of
/// checking its signature.
public struct ObservedSCT: Sendable, Equatable, Hashable {
    /// The log's ID, base64 (SHA-256 of the log's DER public key), as log lists write `log_id`.
    public var logID: String
    /// When the log promised to include the certificate.
    public var timestamp: Date
    /// Where the SCT was found.
    public var source: SCTSource
    /// Whether the signature verifies.
    public var status: SCTStatus

    /// Creates an observed SCT.
    public init(logID: String, timestamp: Date, source: SCTSource, status: SCTStatus) {
        self.logID = logID
        self.timestamp = timestamp
        self.source = source
        self.status = status
    }
}
