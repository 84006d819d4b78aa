import Foundation
import PinGuardTestSupport
import PinGuardProbeTestSupport
import XCTest

/// `pinguard probe` through the built binary: the flags reach the command, the report goes to stdout, and the exit
/// statuses are the command's (64 for a value the parser refuses). What probe decides is tested in-process
/// (PinGuardCommandsTests).
final class CLIProbeTests: XCTestCase {
    func testPolicyCAFileAndConnectReachTheCommandAndARejectExitsOne() throws {
        let s = try LiveServers.shared()
        let k = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-cli-probe")
        let policy = try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "rotated.pinguard.test", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")]),
        ]), to: dir, as: "app.yml")
        let target = "rotated.pinguard.test:\(s.farm.port)"
        let r = try runPinguard(args: ["probe", target, "--connect", "127.0.0.1", "--ca-file", s.pki.caBundle, "--policy", policy, "--json"])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertEqual(r.stderr, "")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        XCTAssertEqual(json["target"] as? String, target)
        let e = try XCTUnwrap((json["evaluations"] as? [[String: Any]])?.first)
        XCTAssertEqual(e["reason"] as? String, "pin_mismatch")
        let table = try runPinguard(args: ["probe", "valid.pinguard.test:\(s.farm.port)", "--connect", "127.0.0.1", "--ca-file", s.pki.caBundle])
        XCTAssertEqual(table.status, 0, table.description)
        XCTAssertNil(try? JSONSerialization.jsonObject(with: Data(table.stdout.utf8)), "a table: \(table.stdout)")
    }

    func testTheTimeoutReachesTheProbe() throws {
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        // The silent peer never answers: the probe ends only at a deadline, and the error names the one given (the
        // default is 10 s); the harness's timeout only stops a hang.
        let r = try runPinguard(args: ["probe", "valid.pinguard.test:\(peer.port)", "--connect", "127.0.0.1", "--timeout", "1s", "--json"],
                                timeout: 120)
        XCTAssertFalse(r.timedOut, r.description)
        XCTAssertEqual(r.status, 1, r.description)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let probe = json["probe"] as? [String: Any]
        XCTAssertEqual(probe?["error"] as? String, "TLS handshake with 127.0.0.1:\(peer.port): timeout after 1s")
        XCTAssertGreaterThanOrEqual((probe?["duration_seconds"] as? NSNumber)?.doubleValue ?? 0, 0.9, "it waited for the deadline")
    }

    func testBadValuesAreUsageErrors() throws {
        let s = try LiveServers.shared()
        let timeout = try runPinguard(args: ["probe", "valid.pinguard.test:\(s.farm.port)", "--timeout", "soon"])
        XCTAssertEqual(timeout.status, 64, timeout.description)
        XCTAssertTrue(timeout.stderr.contains("--timeout"), timeout.stderr)
        let before = try runPinguard(args: ["probe", "valid.pinguard.test:\(s.farm.port)", "--renewal-before", "later"])
        XCTAssertEqual(before.status, 64, before.description)
        let pair = try runPinguard(args: ["probe", "valid.pinguard.test:\(s.farm.port)", "--client-key", "k.pem"])
        XCTAssertEqual(pair.status, 64, pair.description)
        XCTAssertTrue(pair.stderr.contains("--client-key needs --client-cert"), pair.stderr)
    }
}
