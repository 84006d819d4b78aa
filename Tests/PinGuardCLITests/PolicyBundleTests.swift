import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardProbeTestSupport
import PinGuardTestSupport
import XCTest

/// Signed remote pin bundles (docs/reference.md, Signed policy bundles): blobs made by the openssl CLI with good,
/// bad and missing signatures for HMAC-SHA256 and ECDSA P-256, verified as PinGuard's client verifies them.
final class PolicyBundleTests: XCTestCase {
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

    /// End to end: `check-config` says what the clients keep, `serve --once` evaluates the pins the clients enforce.
    func testTheServiceEvaluatesTheVerifiedPinsOrThoseTheClientsKeep() throws {
        let w = try world()
        let s = try LiveServers.shared()
        let dir = try TemporaryDirectory.make("pinguard-bundle-config")
        let builtin = dir.appendingPathComponent("builtin.yml").path
        // The built-in pins do not match the served key: evaluating them gives a visible pin_mismatch.
        try """
        name: shipped
        environments:
          prod:
            policies:
              - pattern: "*.pinguard.test"
                policy:
                  pins:
                    - {type: spki, hash: "\(String(repeating: "A", count: 43))=", scope: leaf}
        """.write(toFile: builtin, atomically: true, encoding: .utf8)
        func run(_ blob: String, builtin: String?) throws -> (check: CommandResult, once: CommandResult) {
            let config = dir.appendingPathComponent("pinguard.yml").path
            try """
            policies: []
            journal: {enabled: false}
            trust: {ca_file: \(s.pki.caBundle)}
            policy_bundles:
              - name: remote-app
                bundle: \(w.files.blob(blob))
                hmac_secrets: {key-v1: \(w.files.hmacSecret)}
                ecdsa_public_keys: {pins-2026: \(w.files.ecdsaPublicKey)}
            \(builtin.map { "    builtin_policy: \($0)" } ?? "")
            targets:
              - host: \(s.pki.serverName("valid"))
                port: \(s.farm.port)
                connect: 127.0.0.1
            """.write(toFile: config, atomically: true, encoding: .utf8)
            return (try PinguardCLI.run(["check-config", config]), try PinguardCLI.run(["serve", "--once", "--config", config]))
        }
        let good = try run("ecdsa-der-good", builtin: builtin)
        XCTAssertEqual(good.check.status, 0, "\(good.check)")
        XCTAssertTrue(good.check.stdout.contains("verified (ecdsa_p256 key \"pins-2026\"); clients enforce its pins"), good.check.stdout)
        XCTAssertEqual(good.once.status, 0, "\(good.once)")
        XCTAssertTrue(good.once.stdout.split(separator: "\n").contains { $0.contains("remote-app/prod") && $0.contains("pin_match") },
                      good.once.stdout)

        let forged = try run("hmac-bad", builtin: builtin)
        XCTAssertEqual(forged.check.status, 0, "a rejected bundle is reported, not a configuration error: \(forged.check)")
        XCTAssertTrue(forged.check.stdout.contains("REJECTED (invalid_signature)"), forged.check.stdout)
        XCTAssertTrue(forged.check.stdout.contains("clients keep the pins built into the app (builtin_policy)"), forged.check.stdout)
        XCTAssertEqual(forged.once.status, 1, "the built-in pins do not match: \(forged.once)")
        XCTAssertTrue(forged.once.stdout.split(separator: "\n").contains { $0.contains("remote-app/prod") && $0.contains("pin_mismatch") },
                      forged.once.stdout)

        let unsigned = try run("unsigned", builtin: nil)
        XCTAssertTrue(unsigned.check.stdout.contains("REJECTED (unsigned): the bundle has no signature; clients keep pins pinguard has not seen"),
                      unsigned.check.stdout)
    }
}
