import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// `pinguard pin` (files and live hosts) prints the hashes the probe and OpenSSL compute, and
/// `pinguard check-config` accepts a good configuration and rejects bad ones with file:line.
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

    func testCheckConfigRejectsAnUnknownKeyWithFileAndLine() throws {
        let dir = try goodConfiguration()
        let path = try edit(dir, "pinguard.yml") { $0.replacingOccurrences(of: "timeout: 5s", with: "timeot: 5s") }
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):3:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("timeot"), r.stderr)
    }

    func testCheckConfigRejectsABadDurationWithFileAndLine() throws {
        let dir = try goodConfiguration()
        let path = try edit(dir, "pinguard.yml") { $0.replacingOccurrences(of: "interval: 1m", with: "interval: 1 minute") }
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):2:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("interval"), r.stderr)
    }

    func testCheckConfigRejectsABadHashInALoadedPolicyWithItsFileAndLine() throws {
        let dir = try goodConfiguration()
        let policy = try edit(dir, "policies/app.yml") { text in
            text.replacingOccurrences(of: "role: backup", with: "role: backup}\n            - {type: spki, hash: \"sha256/short=\"")
        }
        let lines = try String(contentsOfFile: policy, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try XCTUnwrap(lines.firstIndex { $0.contains("sha256/short=") }) + 1
        let r = try runPinguard(args: ["check-config", dir.appendingPathComponent("pinguard.yml").path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(policy):\(line):"), "want \(policy):\(line): in \(r.stderr)")
    }

    func testCheckConfigRejectsAnUnknownPolicySetName() throws {
        let dir = try goodConfiguration()
        let path = try edit(dir, "pinguard.yml") { $0.replacingOccurrences(of: "policy_sets: [app]", with: "policy_sets: [ap]") }
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\"ap\""), r.stderr)
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

    private func edit(_ dir: URL, _ file: String, _ change: (String) -> String) throws -> String {
        let url = dir.appendingPathComponent(file)
        let before = try String(contentsOf: url, encoding: .utf8)
        let after = change(before)
        XCTAssertNotEqual(before, after, "the edit must change \(file)")
        try after.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
