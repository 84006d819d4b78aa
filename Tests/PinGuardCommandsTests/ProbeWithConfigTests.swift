import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `probe --config` judges as `serve` would with that configuration: its policy sets, its target of the same host
/// and port, its renewal settings; flags given on the command line win.
final class ProbeWithConfigTests: ProbeEvaluationTestCase {
    /// A configuration trusting the test root, loading `policies`, with `renewal.before: 45d` and the `rotated` leaf
    /// as a target of its own; its path.
    func configuration(policies: [String]) throws -> String {
        let s = try ProbeFarm.shared()
        let dir = try TemporaryDirectory.make("pinguard-probe-config")
        let yaml = """
            policies: [\(policies.map { "\"\($0)\"" }.joined(separator: ", "))]
            trust: {ca_file: "\(s.pki.caBundle)"}
            renewal: {before: 45d}
            journal: {enabled: false}
            targets:
              - {name: rotated, host: \(s.pki.serverName("rotated")), port: \(s.farm.port), connect: 127.0.0.1}
            """
        let path = dir.appendingPathComponent("pinguard.yml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheConfigurationsPoliciesAndRenewalJudgeTheProbe() async throws {
        let config = try configuration(policies: [try rotatedPolicy("config-strict")])
        var o = try options("rotated", policies: [], caFile: false)
        o.config = config
        o.connect = []
        let r = await ProbeCommand.run(o)
        let json = try XCTUnwrap(try r.json() as? [String: Any], "\(r)")
        XCTAssertEqual(r.status, 1, "the configuration's strict set rejects the rotated key: \(r)")
        assertDecision(try evaluation(json, "config-strict"), "reject", "pin_mismatch")
        let forecast = try XCTUnwrap(json["forecast"] as? [String: Any])
        XCTAssertEqual(forecast["when_basis"] as? String, "before", "renewal.before of the configuration: \(forecast)")
    }

    func testPolicyFilesGivenOnTheCommandLineWinOverTheConfigurations() async throws {
        let config = try configuration(policies: [try rotatedPolicy("config-strict-2")])
        var o = try options("rotated", policies: [try rotatedPolicy("flag-permissive", failStrategy: "permissive")], caFile: false)
        o.config = config
        let r = await ProbeCommand.run(o)
        let json = try XCTUnwrap(try r.json() as? [String: Any], "\(r)")
        XCTAssertEqual(r.status, 0, "\(r)")
        let sets = (json["evaluations"] as? [[String: Any]] ?? []).compactMap { $0["policy_set"] as? String }
        XCTAssertEqual(sets, ["flag-permissive"])
    }
}
