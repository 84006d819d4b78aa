import Foundation
import PinGuardProbeTestSupport
import PinGuardTestSupport
import XCTest

/// Signed remote pin bundles through the built binary (docs/reference.md, Signed policy bundles): `check-config` says
/// what the clients keep and `serve --once` evaluates those pins against a live server. The verification itself is
/// PolicyBundleSignatureTests.
final class CLIPolicyBundleTests: XCTestCase {
    struct World: Sendable {
        let files: SignedBundleFiles
    }

    private static let made: Result<World, HarnessError> = {
        do {
            let pki = try TestPKI.shared()
            let spki = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("valid"))
            return .success(World(files: try SignedBundleFiles.make(payload: SignedBundleFiles.payload(pattern: "*.pinguard.test", spki: spki))))
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    func world() throws -> World { try Self.made.get() }

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
