import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// What the probe evaluation tests share: policy files for the leaves of the farm, `probe` in-process with its
/// JSON parsed, and the evaluation of a set in it.
class ProbeEvaluationTestCase: XCTestCase {
    /// A directory for this process's policy files.
    static let policyDirectory = Result { try TemporaryDirectory.make("pinguard-probe-policies") }

    /// Writes a policy set `name` with one exact-host rule for leaf `host`.
    func policy(_ name: String, host: String, pins: [PinSpec], failStrategy: String? = nil,
                        requireSystemTrust: Bool? = nil, fallback: Bool? = nil, expires: String? = nil) throws -> String {
        let s = try ProbeFarm.shared()
        let rule = HostPolicySpec(pattern: s.pki.serverName(host), pins: pins, failStrategy: failStrategy,
                                  requireSystemTrust: requireSystemTrust, allowSystemTrustFallback: fallback,
                                  expires: expires)
        return try PolicyYAML.write(PolicyYAML.policySet(name: name, rules: [rule]),
                                    to: try Self.policyDirectory.get(), as: "\(name).yml")
    }

    /// The pins a client shipped before `rotated` got its new key: the old key and a reserve key.
    func rotatedPolicy(_ name: String, failStrategy: String? = nil, fallback: Bool? = nil) throws -> String {
        let k = try PKIPins.shared()
        return try policy(name, host: "rotated", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")],
                          failStrategy: failStrategy, fallback: fallback)
    }

    /// Options probing `NAME.pinguard.test:PORT` at 127.0.0.1 within 5 s as JSON, the test root trusted
    /// unless `caFile` is false.
    func options(_ leaf: String, policies: [String], caFile: Bool = true, port: Int? = nil) throws -> ProbeCommand.Options {
        let s = try ProbeFarm.shared()
        var o = ProbeCommand.Options(host: s.pki.serverName(leaf), port: port ?? s.farm.port, now: Date())
        o.connect = ["127.0.0.1"]
        o.timeout = 5
        o.json = true
        o.caFile = caFile ? s.pki.caBundle : nil
        o.policies = policies
        return o
    }

    /// Probes leaf `leaf` in-process (see `options`) and parses its JSON.
    func probe(_ leaf: String, policies: [String], caFile: Bool = true, port: Int? = nil,
                       parseJSON: Bool = true) async throws -> (CommandOutcome, [String: Any]) {
        let r = await ProbeCommand.run(try options(leaf, policies: policies, caFile: caFile, port: port))
        guard parseJSON else { return (r, [:]) }
        return (r, try XCTUnwrap(try r.json() as? [String: Any], "\(r)"))
    }

    func evaluation(_ json: [String: Any], _ set: String, file: StaticString = #filePath,
                            line: UInt = #line) throws -> [String: Any] {
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]], file: file, line: line)
        return try XCTUnwrap(list.first { $0["policy_set"] as? String == set }, "no evaluation for \(set): \(list)",
                             file: file, line: line)
    }

    func assertDecision(_ e: [String: Any], _ verdict: String, _ reason: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(e["verdict"] as? String, verdict, "\(e)", file: file, line: line)
        XCTAssertEqual(e["reason"] as? String, reason, "\(e)", file: file, line: line)
    }

    func matchedDepths(_ e: [String: Any]) -> [[Int]] {
        (e["matched_pins"] as? [[String: Any]] ?? []).map { $0["depths"] as? [Int] ?? [] }
    }

    func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
}
