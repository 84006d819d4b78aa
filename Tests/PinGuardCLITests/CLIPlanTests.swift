import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard plan` through the built binary: the flags reach the command, the verdicts go to stdout, and the exit
/// statuses are the command's (64 for a flag the parser refuses). What plan decides is tested in-process
/// (PinGuardCommandsTests).
final class CLIPlanTests: XCTestCase {
    func testFlagsReachTheCommandAndTheStatusIsItsVerdict() throws {
        let pki = try TestPKI.shared()
        let pins = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-cli-plan")
        let ios = try PolicyYAML.write(PolicyYAML.policySet(name: "ios-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(pins.leaf("valid")), .spki(pins.leaf("backup"), role: "backup")]),
        ]), to: dir, as: "ios.yml")
        let rejected = try runPinguard(args: ["plan", "--chain", pki.chain("rotated"), "--host", "rotated.pinguard.test", "--policy", ios,
                                              "--ca-file", pki.caBundle])
        XCTAssertEqual(rejected.status, 1, rejected.description)
        XCTAssertTrue(rejected.stdout.contains("1 of 1 decisions reject the candidate: ios-app"), rejected.stdout)
        XCTAssertEqual(rejected.stderr, "")
        let later = try runPinguard(args: ["plan", "--chain", pki.chain("valid"), "--host", "valid.pinguard.test", "--policy", ios,
                                           "--ca-file", pki.caBundle, "--at", "2090-01-01", "--format", "json"])
        XCTAssertEqual(later.status, 1, later.description)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any], later.stdout)
        XCTAssertEqual(object["at"] as? String, "2090-01-01T00:00:00Z")
        let sarif = try runPinguard(args: ["plan", "--chain", pki.chain("valid"), "--host", "valid.pinguard.test", "--policy", ios,
                                           "--ca-file", pki.caBundle, "--format", "sarif"])
        XCTAssertEqual(sarif.status, 0, sarif.description)
        let log = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let driver = ((log["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any]
        XCTAssertEqual(driver?["version"] as? String, try runPinguard(args: ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testBadInputExitsTwoAndABadFlagSixtyFour() throws {
        let dir = try TemporaryDirectory.make("pinguard-cli-plan-bad")
        let policy = try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: []), to: dir, as: "app.yml")
        let missing = try runPinguard(args: ["plan", "--chain", "/nonexistent.pem", "--host", "a.pinguard.test", "--policy", policy])
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertTrue(missing.stderr.contains("/nonexistent.pem: cannot read the file"), missing.stderr)
        let badDate = try runPinguard(args: ["plan", "--chain", "/nonexistent.pem", "--host", "a", "--policy", policy, "--at", "soon"])
        XCTAssertEqual(badDate.status, 64, badDate.description)
        XCTAssertTrue(badDate.stderr.contains("--at \"soon\" is not a date"), badDate.stderr)
        let both = try runPinguard(args: ["plan", "--chain", "/nonexistent.pem", "--host", "a", "--policy", policy, "--config", policy])
        XCTAssertEqual(both.status, 64, both.description)
    }
}
