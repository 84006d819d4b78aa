import Foundation

/// One SCT a test wants: which log signs it, dated when, and whether to spoil it.
public struct TestSCT: Sendable {
    /// The signing log (it need not be named by any log list: that makes an `unknown_log` SCT).
    public var log: TestCTLog
    /// The SCT's timestamp.
    public var timestamp: Date
    /// Whether to sign something else than the entry: a well-formed signature that does not verify.
    public var corruptSignature: Bool

    /// An SCT by `log` at `timestamp`.
    public init(log: TestCTLog, timestamp: Date, corruptSignature: Bool = false) {
        self.log = log
        self.timestamp = timestamp
        self.corruptSignature = corruptSignature
    }

    /// The TLS-encoded `SignedCertificateTimestamp` over `entry`.
    public func signed(over entry: SCTSignedEntry) throws -> [UInt8] {
        try log.sign(entry, at: timestamp, corrupt: corruptSignature)
    }
}
