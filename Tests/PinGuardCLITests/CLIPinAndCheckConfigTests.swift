import Foundation
import PinGuardTestSupport
import PinGuardProbeTestSupport
import XCTest

/// `pinguard pin --host` prints the hashes of the chain a live host serves, and `pinguard check-config` accepts a
/// good configuration and exits 2 on a missing one, through the built binary. Both commands' rules are tested
/// in-process (PinGuardCommandsTests).
final class CLIPinAndCheckConfigTests: XCTestCase {
    // MARK: pin

    func testPinOfALiveHostListsTheVerifiedChainWithItsRoot() throws {
        let s = try LiveServers.shared()
        let r = try runPinguard(args: ["pin", "--host", "\(s.pki.serverName("rsa")):\(s.farm.port)", "--connect", "127.0.0.1",
                                       "--ca-file", s.pki.caBundle])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.contains("- {type: spki, hash: \"\(try spki(s.pki.certificate("rsa")))\", scope: leaf}"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\"\(try cert(s.pki.certificate("rsa")))\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("- {type: ca, hash: \"\(try spki(s.pki.intermediate))\", scope: intermediate}"), r.stdout)
        XCTAssertTrue(r.stdout.contains("- {type: ca, hash: \"\(try spki(s.pki.root))\", scope: root}"), r.stdout)

        // The same hashes as `pin FILE` prints for the chain file.
        let fromFile = try runPinguard(args: ["pin", s.pki.chain("rsa")])
        let hashes = { (text: String) in Set(text.split(separator: "\"").filter { $0.count == 44 && $0.hasSuffix("=") }) }
        XCTAssertTrue(hashes(fromFile.stdout).isSubset(of: hashes(r.stdout)), "\(fromFile.stdout)\n\(r.stdout)")
        XCTAssertEqual(hashes(r.stdout).count, 6)
    }

    func testPinOfAnUntrustedHostStillListsTheServedChain() throws {
        let s = try LiveServers.shared()
        let r = try runPinguard(args: ["pin", "--host", "\(s.pki.serverName("expired")):\(s.farm.port)", "--connect", "127.0.0.1"])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.contains(try spki(s.pki.certificate("expired"))), r.stdout)
        XCTAssertTrue(r.stdout.contains(try spki(s.pki.intermediate)), r.stdout)
    }

    func testPinOfAClosedPortFails() throws {
        let port = LoopbackPorts.closed()
        let r = try runPinguard(args: ["pin", "--host", "closed.pinguard.test:\(port)", "--connect", "127.0.0.1"])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stderr.contains("Connection refused"), r.stderr)
    }

    // MARK: check-config

    func testCheckConfigAcceptsAGoodConfiguration() throws {
        let dir = try goodConfiguration()
        let r = try runPinguard(args: ["check-config", dir.appendingPathComponent("pinguard.yml").path])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.contains("ok: 2 targets, 2 policy sets"), r.stdout)
    }

    func testCheckConfigOfAMissingFileExitsTwo() throws {
        let r = try runPinguard(args: ["check-config", "/nonexistent/pinguard.yml"])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("/nonexistent/pinguard.yml"), r.stderr)
    }

    // MARK: helpers

    private func spki(_ pem: String) throws -> String { try OpenSSLTool.spkiSHA256(certificate: pem) }
    private func cert(_ pem: String) throws -> String { try OpenSSLTool.certSHA256(certificate: pem) }

    /// A config folder: `pinguard.yml` with two targets on the live farm, and two policy files under `policies/`.
    private func goodConfiguration() throws -> URL {
        let s = try LiveServers.shared()
        let k = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-check-config")
        try PolicyYAML.write("""
            listen: "127.0.0.1:9477"
            interval: 1m
            timeout: 5s
            concurrency: 4
            trust: {ca_file: \(s.pki.caBundle)}
            expiry_warning_days: 30
            policies: ["policies/*.yml"]
            journal: {enabled: false}
            targets:
              - host: valid.pinguard.test
                port: \(s.farm.port)
                connect: 127.0.0.1
                policy_sets: [app]
              - host: rotated.pinguard.test
                port: \(s.farm.port)
                connect: 127.0.0.1
                name: rotated
                environment: staging

            """, to: dir, as: "pinguard.yml")
        try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "*.pinguard.test", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")]),
        ]), to: dir, as: "policies/app.yml")
        try PolicyYAML.write(PolicyYAML.policySet(name: "web", environment: "staging", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [PinSpec(type: "ca", hash: k.intermediate)],
                           failStrategy: "permissive", expires: "2030-06-30"),
        ]), to: dir, as: "policies/web.yml")
        return dir
    }
}
