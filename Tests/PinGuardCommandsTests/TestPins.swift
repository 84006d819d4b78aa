import PinGuardTestSupport

/// The SPKI pins of the test PKI as OpenSSL computes them.
enum TestPins {
    /// SPKI pin of leaf `name`.
    static func leaf(_ name: String) throws -> String { try OpenSSLTool.spkiSHA256(certificate: TestPKI.shared().certificate(name)) }
    /// SPKI pin of the intermediate.
    static func intermediate() throws -> String { try OpenSSLTool.spkiSHA256(certificate: TestPKI.shared().intermediate) }
    /// SPKI pin of `reserve.key`, which no server uses.
    static func reserve() throws -> String { try OpenSSLTool.spkiSHA256(privateKey: TestPKI.shared().reserveKey) }
}
