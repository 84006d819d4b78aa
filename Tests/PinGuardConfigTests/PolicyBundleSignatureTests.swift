import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardConfig
import PinGuardTestSupport
import XCTest

/// Signed remote pin bundles (docs/reference.md, Signed policy bundles): blobs made by the openssl CLI with good,
/// bad and missing signatures for HMAC-SHA256 and ECDSA P-256, verified as PinGuard's client verifies them. What
/// `check-config` and `serve --once` make of them is CLIPolicyBundleTests.
final class PolicyBundleSignatureTests: XCTestCase {
    struct World: Sendable {
        let files: SignedBundleFiles
        let validSPKI: String
    }

    private static let made: Result<World, HarnessError> = {
        do {
            let pki = try TestPKI.shared()
            let spki = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("valid"))
            let files = try SignedBundleFiles.make(payload: SignedBundleFiles.payload(pattern: "*.pinguard.test", spki: spki))
            return .success(World(files: files, validSPKI: spki))
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    func world() throws -> World { try Self.made.get() }

    func verify(_ w: World, _ name: String) throws -> PolicyBundleError? {
        let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.blob(name))))
        let secret = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.hmacSecret)))
        let pem = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.ecdsaPublicKey)))
        let key = try BundleSignatureVerifier.PublicKey(pem: pem, name: w.files.ecdsaPublicKey)
        do {
            let blob = try SignedBlob.parse(bytes)
            try BundleSignatureVerifier.verify(blob, hmacSecrets: ["key-v1": secret], ecdsaKeys: ["pins-2026": key])
            return nil
        } catch {
            return error
        }
    }

    func testGoodSignaturesOfBothSchemesVerifyAndThePinsInsideAreRead() throws {
        let w = try world()
        for name in ["hmac-good", "ecdsa-der-good", "ecdsa-raw-good"] {
            XCTAssertNil(try verify(w, name), name)
        }
        let blob = try SignedBlob.parse([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.blob("ecdsa-raw-good")))))
        XCTAssertEqual(blob.signature.count, 64, "raw r || s")
        XCTAssertEqual(blob.scheme, .ecdsaP256(keyID: "pins-2026"))
        XCTAssertEqual(blob.payload, [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.payload))), "the exact bytes signed")
        let set = try RemoteConfigPayload.policySet(blob.payload, name: "remote-app", environment: "prod")
        let rule = try XCTUnwrap(set.environments["prod"]?.rules.first)
        XCTAssertEqual(rule.pattern, .oneLabel("pinguard.test"))
        XCTAssertEqual(rule.policy.pins, [Pin(type: .spki, hash: w.validSPKI, role: .primary, scope: .leaf)])
        XCTAssertEqual(rule.policy.failStrategy, .strict)
    }

    func testBadAndMissingSignaturesAreRejectedWithTheirReason() throws {
        let w = try world()
        let expected: [(String, PolicyBundleState, String)] = [
            ("hmac-bad", .invalidSignature, "the HMAC-SHA256 does not verify with secret \"key-v1\""),
            ("hmac-unknown-key", .unknownKey, "HMAC secret ID \"key-v9\" is not configured (hmac_secrets)"),
            ("ecdsa-bad", .invalidSignature, "the ECDSA P-256 signature does not verify with key \"pins-2026\""),
            ("ecdsa-tampered", .invalidSignature, "the ECDSA P-256 signature does not verify with key \"pins-2026\""),
            ("unsigned", .unsigned, "the bundle has no signature"),
            ("untyped", .unsigned, "the bundle names no signatureType"),
            ("garbage", .malformed, "the bundle is not a JSON object"),
        ]
        for (name, state, message) in expected {
            let error = try XCTUnwrap(try verify(w, name), "\(name) was accepted")
            XCTAssertEqual(error.status, state, name)
            XCTAssertEqual(error.message, message, name)
        }
    }

    func testAKeyThatIsNotECDSAP256IsRefused() throws {
        let w = try world()
        let pem = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: w.files.rsaPublicKey)))
        XCTAssertThrowsError(try BundleSignatureVerifier.PublicKey(pem: pem, name: "rsa.pub")) { error in
            XCTAssertEqual((error as? ProbeError)?.message, "rsa.pub: a RSA-2048 key, not an ECDSA P-256 key")
        }
        XCTAssertThrowsError(try BundleSignatureVerifier.PublicKey(pem: Array("hello".utf8), name: "x.pem"))
        let k1 = try CommandRunner.shell("\(OpenSSLTool.path) genpkey -algorithm EC -pkeyopt ec_paramgen_curve:secp256k1 2>/dev/null | \(OpenSSLTool.path) pkey -pubout")
        XCTAssertThrowsError(try BundleSignatureVerifier.PublicKey(pem: Array(k1.stdout.utf8), name: "k1.pem")) { error in
            XCTAssertEqual((error as? ProbeError)?.message, "k1.pem: a EC-256 (secp256k1) key, not an ECDSA P-256 key")
        }
    }

    func testAnUnsupportedPayloadVersionIsMalformed() throws {
        XCTAssertThrowsError(try RemoteConfigPayload.policySet(Array(#"{"version":2,"policySet":{"policies":[]}}"#.utf8),
                                                               name: "a", environment: "prod")) { error in
            XCTAssertEqual((error as? PolicyBundleError)?.status, .malformed)
        }
    }
}
