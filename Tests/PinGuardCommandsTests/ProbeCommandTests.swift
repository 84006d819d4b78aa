import Foundation
import PinGuardCommands
import PinGuardTestSupport
import XCTest

/// `probe` in-process against real TLS servers on loopback (nginx, one port, a leaf of the test PKI per name):
/// what each client decides, the report, and the status of each outcome.
final class ProbeCommandTests: XCTestCase {
    /// Options probing leaf `name` on the farm at 127.0.0.1, the test root trusted, as JSON.
    func options(_ name: String, policies: [String] = [], port: Int? = nil) throws -> ProbeCommand.Options {
        let pki = try TestPKI.shared()
        var o = ProbeCommand.Options(host: pki.serverName(name), port: try port ?? ProbeFarm.shared().farm.port, now: Date())
        o.connect = ["127.0.0.1"]
        o.timeout = 5
        o.caFile = pki.caBundle
        o.policies = policies
        o.json = true
        return o
    }

    func json(_ r: CommandOutcome) throws -> [String: Any] { try XCTUnwrap(try r.json() as? [String: Any], r.description) }

    /// One policy set `name` pinning `pins` for leaf `host`.
    func policy(_ name: String, host: String, pins: [PinSpec], failStrategy: String? = nil) throws -> String {
        let pki = try TestPKI.shared()
        return try PolicyYAML.write(PolicyYAML.policySet(name: name, rules: [
            HostPolicySpec(pattern: pki.serverName(host), pins: pins, failStrategy: failStrategy),
        ]), to: try TemporaryDirectory.make("pinguard-probe"), as: "\(name).yml")
    }

    func evaluation(_ json: [String: Any], _ set: String) throws -> [String: Any] {
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]])
        return try XCTUnwrap(list.first { $0["policy_set"] as? String == set }, "\(list)")
    }

    func testAPinOfTheLeafKeyIsAcceptedWithTheChainAndItsPins() async throws {
        let file = try policy("leaf-pin", host: "valid", pins: [.spki(try PKIPins.shared().leaf("valid")), .spki(try PKIPins.shared().reserve, role: "backup")])
        let r = await ProbeCommand.run(try options("valid", policies: [file]))
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stdout.hasSuffix("}\n"), "one JSON object and a newline")
        let json = try json(r)
        XCTAssertEqual(json["target"] as? String, "valid.pinguard.test:\(try ProbeFarm.shared().farm.port)")
        XCTAssertEqual(json["trusted"] as? Bool, true)
        let chain = try XCTUnwrap(json["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["source"] as? String }, ["served", "served", "store"])
        XCTAssertEqual(chain.first?["spki_sha256"] as? String, try PKIPins.shared().leaf("valid"))
        let e = try evaluation(json, "leaf-pin")
        XCTAssertEqual(e["verdict"] as? String, "accept")
        XCTAssertEqual(e["reason"] as? String, "pin_match")
        XCTAssertEqual(e["reserve_pins"] as? Int, 1)
    }

    func testARotatedKeyIsRejectedByAStrictPolicyAndAcceptedByAPermissiveOne() async throws {
        let pins: [PinSpec] = [.spki(try PKIPins.shared().leaf("valid")), .spki(try PKIPins.shared().reserve, role: "backup")]
        let strict = try policy("strict", host: "rotated", pins: pins)
        let r = await ProbeCommand.run(try options("rotated", policies: [strict]))
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertEqual(try evaluation(try json(r), "strict")["reason"] as? String, "pin_mismatch")
        let permissive = try policy("permissive", host: "rotated", pins: pins, failStrategy: "permissive")
        let p = await ProbeCommand.run(try options("rotated", policies: [permissive]))
        XCTAssertEqual(p.status, 0, p.description)
        XCTAssertEqual(try evaluation(try json(p), "permissive")["verdict"] as? String, "accept")
    }

    func testWithoutPoliciesTheStatusFollowsTrust() async throws {
        let trusted = await ProbeCommand.run(try options("valid"))
        XCTAssertEqual(trusted.status, 0, trusted.description)
        XCTAssertEqual((try json(trusted)["evaluations"] as? [Any])?.count, 0)
        let untrusted = await ProbeCommand.run(try options("selfsigned"))
        XCTAssertEqual(untrusted.status, 1, untrusted.description)
    }

    func testAClosedPortIsAFailedProbeWithNoVerdict() async throws {
        let file = try policy("closed", host: "valid", pins: [.spki(try PKIPins.shared().leaf("valid"))])
        let port = LoopbackPorts.closed()
        let r = await ProbeCommand.run(try options("valid", policies: [file], port: port))
        XCTAssertEqual(r.status, 1, r.description)
        let json = try json(r)
        XCTAssertEqual((json["probe"] as? [String: Any])?["error"] as? String, "connect to 127.0.0.1:\(port): Connection refused")
        XCTAssertEqual(try evaluation(json, "closed")["verdict"] as? String, "none")
    }

    func testTheTableIsTheDefaultReport() async throws {
        var o = try options("valid")
        o.json = false
        let r = await ProbeCommand.run(o)
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stdout.contains("valid.pinguard.test"), r.stdout)
        XCTAssertNil(try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), "a table, not JSON")
    }

    func testAMalformedPolicyFileIsStatusTwoNamingFileAndLineWithNothingProbed() async throws {
        let bad = try PolicyYAML.writeMalformed(in: try TemporaryDirectory.make("pinguard-probe-bad"))
        let r = await ProbeCommand.run(try options("valid", policies: [bad]))
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderrText.contains("\(bad):8:"), r.stderrText)
    }

    func testAClientIdentityThatCannotBeReadIsStatusTwo() async throws {
        var o = try options("valid")
        o.clientIdentity = .pem(certificate: "/nonexistent/client.pem", key: "/nonexistent/client.pem")
        let r = await ProbeCommand.run(o)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderrText.contains("/nonexistent/client.pem"), r.stderrText)
    }
}
