import Foundation
import PinGuardCrypto
import PinGuardCTTestSupport
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// A log list's detached signature is checked as Chrome's publisher documents it
/// (`openssl dgst -sha256 -verify log_list_pubkey.pem -signature log_list.sig log_list.json`), over the exact bytes.
final class LogListSignatureTests: XCTestCase {
    static let list = Array(#"{"version": "1.0", "log_list_timestamp": "2026-11-20T00:00:00Z", "operators": []}"#.utf8)

    func testASignatureTheOpenSSLCommandAcceptsVerifies() throws {
        let publisher = try TestLogListPublisher()
        let signature = try publisher.sign(Self.list)
        let dir = try TemporaryDirectory.make("pinguard-log-list-sig")
        let (pem, json, sig) = (dir.appendingPathComponent("log_list_pubkey.pem"), dir.appendingPathComponent("log_list.json"),
                                dir.appendingPathComponent("log_list.sig"))
        try publisher.publicKeyPEM.write(to: pem, atomically: true, encoding: .utf8)
        try Data(Self.list).write(to: json)
        try Data(signature).write(to: sig)
        let openssl = try CommandRunner.run(OpenSSLTool.path, ["dgst", "-sha256", "-verify", pem.path, "-signature", sig.path, json.path])
        XCTAssertEqual(openssl.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "Verified OK", "\(openssl)")
        let key = try LogListSignatureKey(pem: Array(publisher.publicKeyPEM.utf8), name: "log_list_pubkey.pem")
        XCTAssertEqual(key.summary, "RSA-2048")
        XCTAssertTrue(key.verifies(Self.list, signature: signature))
    }

    func testOneChangedByteAnotherKeyOrNoSignatureFails() throws {
        let publisher = try TestLogListPublisher()
        let key = try LogListSignatureKey(pem: Array(publisher.publicKeyPEM.utf8), name: "key.pem")
        let signature = try publisher.sign(Self.list)
        var tampered = Self.list
        tampered[tampered.count - 3] = UInt8(ascii: "1")
        XCTAssertFalse(key.verifies(tampered, signature: signature), "a list changed after signing")
        XCTAssertFalse(key.verifies(Self.list, signature: try TestLogListPublisher().sign(Self.list)), "signed by a stranger")
        XCTAssertFalse(key.verifies(Self.list, signature: []), "no signature")
        XCTAssertFalse(key.verifies(Self.list, signature: Array(signature.dropLast())), "a truncated signature")
    }

    func testAnECKeyVerifiesItsDERSignatures() throws {
        let publisher = try TestLogListPublisher(.p256)
        let key = try LogListSignatureKey(pem: Array(publisher.publicKeyPEM.utf8), name: "ec.pem")
        XCTAssertEqual(key.summary, "EC-256")
        XCTAssertTrue(key.verifies(Self.list, signature: try publisher.sign(Self.list)))
    }

    func testAKeyThatCannotSignWithSHA256OrIsNoKeyIsRefused() throws {
        let ed = try TestLogListPublisher(.ed25519)
        XCTAssertThrowsError(try LogListSignatureKey(pem: Array(ed.publicKeyPEM.utf8), name: "ed.pem")) { error in
            XCTAssertEqual("\(error)", "ed.pem: a ED25519-256 key; a log list key is RSA (2048 bits or more) or EC (P-256 or larger)")
        }
        XCTAssertThrowsError(try LogListSignatureKey(pem: Array("not a key".utf8), name: "junk.pem")) { error in
            XCTAssertEqual("\(error)", "junk.pem: no PEM public key (-----BEGIN PUBLIC KEY-----) in the file")
        }
    }
}
