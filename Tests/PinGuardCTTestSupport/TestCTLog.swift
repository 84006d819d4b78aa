import COpenSSL
import Foundation
import PinGuardCore
import PinGuardDemo
import PinGuardTestSupport

/// A Certificate Transparency log made in the test: an EC P-256 key whose log ID is the SHA-256 of its DER
/// SubjectPublicKeyInfo, signing SCTs exactly as RFC 6962 §3.2 says (v1, `certificate_timestamp`, no
/// extensions, ECDSA with SHA-256).
public final class TestCTLog: Sendable {
    /// The log's key pair.
    public let key: DemoKey
    /// A name for log lists and messages, e.g. `Test Log 1`.
    public let name: String
    /// The 32-byte log ID.
    public let logID: [UInt8]

    /// A fresh log named `name`.
    public init(name: String) throws {
        key = try DemoKey(.p256)
        self.name = name
        logID = TestCTLog.sha256(key.publicKeyDER)
    }

    /// `count` fresh logs, named `Test Log 1` … `Test Log N` (after `prefix`).
    public static func make(_ count: Int, prefix: String = "Test Log") throws -> [TestCTLog] {
        try (0..<count).map { try TestCTLog(name: "\(prefix) \($0 + 1)") }
    }

    /// The log ID as a log list writes `log_id`: base64.
    public var logIDBase64: String { Base64.encode(logID) }
    /// The key as a log list writes `key`: base64 DER SubjectPublicKeyInfo.
    public var keyBase64: String { Base64.encode(key.publicKeyDER) }

    /// The log as a loaded log list holds it.
    public func ctLog(operatorName: String, state: CTLogState = .usable, stateSince: Date? = nil) -> CTLog {
        CTLog(logID: logIDBase64, key: keyBase64, description: name, operatorName: operatorName, state: state,
              stateSince: stateSince)
    }

    /// A TLS-encoded `SignedCertificateTimestamp` over `entry` dated `timestamp`; with `corrupt` the
    /// signature covers other bytes, so it is well-formed but does not verify.
    public func sign(_ entry: SCTSignedEntry, at timestamp: Date, corrupt: Bool = false) throws -> [UInt8] {
        let milliseconds = TLSBytes.integer(UInt64(timestamp.timeIntervalSince1970 * 1000), width: 8)
        let noExtensions = TLSBytes.vector([], lengthWidth: 2)
        // version v1 (0), signature_type certificate_timestamp (0)
        var signedData = [0, 0] + milliseconds + entry.encoded + noExtensions
        if corrupt { signedData.append(0) }
        let signature = try key.signSHA256(signedData)
        // hash sha256 (4), signature ecdsa (3)
        return [0] + logID + milliseconds + noExtensions + [4, 3] + TLSBytes.vector(signature, lengthWidth: 2)
    }

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes, bytes.count, &digest)
        return digest
    }
}
