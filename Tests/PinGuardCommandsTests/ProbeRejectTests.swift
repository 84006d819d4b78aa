import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `probe` in-process against live servers on loopback: pins that do not match, system trust, policies that enforce
/// nothing, failed probes, and the status of each.
final class ProbeRejectTests: ProbeEvaluationTestCase {
    // MARK: mismatch

    func testRotatedKeyIsRejectedByAStrictPolicy() async throws {
        let k = try PKIPins.shared()
        let (r, json) = try await probe("rotated", policies: [try rotatedPolicy("strict")])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(json["trusted"] as? Bool, true)
        let e = try evaluation(json, "strict")
        assertDecision(e, "reject", "pin_mismatch")
        XCTAssertEqual((e["matched_pins"] as? [Any])?.count, 0)
        XCTAssertEqual(e["reserve_pins"] as? Int, 2)
        XCTAssertEqual(Set((e["reserve_pin_list"] as? [[String: Any]] ?? []).compactMap { $0["hash"] as? String }),
                       [k.leaf("valid"), k.reserve])
        XCTAssertTrue(e["pin_horizon"] is NSNull)
        XCTAssertTrue(e["days_to_pin_breakage"] is NSNull)
        XCTAssertEqual(e["backup_in_use"] as? Bool, false)
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 90, accuracy: 0.1)
    }

    func testRotatedKeyIsAcceptedBySystemTrustFallback() async throws {
        let (r, json) = try await probe("rotated", policies: [try rotatedPolicy("fallback", fallback: true)])
        XCTAssertEqual(r.status, 0, "\(r)")
        assertDecision(try evaluation(json, "fallback"), "accept", "pin_mismatch_allowed_by_fallback")
    }

    func testRotatedKeyIsAcceptedByAPermissivePolicy() async throws {
        let (r, json) = try await probe("rotated", policies: [try rotatedPolicy("permissive", failStrategy: "permissive")])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "permissive")
        assertDecision(e, "accept", "pin_mismatch_permissive")
        XCTAssertEqual(e["reserve_pins"] as? Int, 2)
    }

    func testEveryPolicyFileIsEvaluatedAndOneRejectFailsTheRun() async throws {
        let files = [try rotatedPolicy("all-strict"), try rotatedPolicy("all-fallback", fallback: true),
                     try rotatedPolicy("all-permissive", failStrategy: "permissive")]
        let (r, json) = try await probe("rotated", policies: files)
        XCTAssertEqual(r.status, 1, "\(r)")
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]])
        XCTAssertEqual(list.map { $0["policy_set"] as? String }, ["all-strict", "all-fallback", "all-permissive"])
        XCTAssertEqual(list.map { $0["reason"] as? String },
                       ["pin_mismatch", "pin_mismatch_allowed_by_fallback", "pin_mismatch_permissive"])
    }

    // MARK: system trust

    func testExpiredLeafFailsSystemTrustUnderAStrictPolicy() async throws {
        let k = try PKIPins.shared()
        let file = try policy("expired", host: "expired", pins: [.spki(k.leaf("expired"))])
        let (r, json) = try await probe("expired", policies: [file])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(json["trusted"] as? Bool, false)
        XCTAssertEqual(json["trust_error"] as? String, "certificate has expired")
        let chain = try XCTUnwrap(json["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["spki_sha256"] as? String }, [k.leaf("expired"), k.intermediate],
                       "certificate data is kept when verification fails")
        let e = try evaluation(json, "expired")
        assertDecision(e, "reject", "system_trust_failed")
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, -2, accuracy: 0.1)
    }

    func testWrongHostFailsSystemTrustUnderAStrictPolicy() async throws {
        let k = try PKIPins.shared()
        let file = try policy("wronghost-strict", host: "wronghost", pins: [.spki(k.leaf("wronghost"))])
        let (r, json) = try await probe("wronghost", policies: [file])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(json["trust_error"] as? String, "hostname mismatch")
        assertDecision(try evaluation(json, "wronghost-strict"), "reject", "system_trust_failed")
    }

    func testWrongHostIsAcceptedByAPermissivePolicy() async throws {
        let k = try PKIPins.shared()
        let file = try policy("wronghost-permissive", host: "wronghost", pins: [.spki(k.leaf("wronghost"))],
                              failStrategy: "permissive")
        let (r, json) = try await probe("wronghost", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        assertDecision(try evaluation(json, "wronghost-permissive"), "accept", "system_trust_failed_permissive")
    }

    // MARK: no pins enforced

    func testEmptyPinSetFollowsSystemTrust() async throws {
        let trusted = try policy("empty-valid", host: "valid", pins: [])
        let (r, json) = try await probe("valid", policies: [trusted])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "empty-valid")
        assertDecision(e, "accept", "pin_set_empty")
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)
        XCTAssertTrue(e["pin_horizon"] is NSNull)

        // Without system trust required, an untrusted chain still gets the trust verdict: reject.
        let untrusted = try policy("empty-selfsigned", host: "selfsigned", pins: [], requireSystemTrust: false)
        let (r2, json2) = try await probe("selfsigned", policies: [untrusted])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trust_error"] as? String, "self-signed certificate")
        assertDecision(try evaluation(json2, "empty-selfsigned"), "reject", "pin_set_empty")
    }

    func testExpiredPinSetIsNotEnforced() async throws {
        let k = try PKIPins.shared()
        let file = try policy("stale", host: "rotated", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")],
                              expires: "2020-01-01")
        let (r, json) = try await probe("rotated", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "stale")
        assertDecision(e, "accept", "pin_set_expired")
        XCTAssertEqual(e["pin_set_expires"] as? String, "2020-01-02T00:00:00Z", "enforced through the whole UTC day")
        XCTAssertEqual(e["reserve_pins"] as? Int, 2)

        let other = try policy("stale-otherca", host: "otherca", pins: [.spki(k.leaf("otherca"))], expires: "2020-01-01")
        let (r2, json2) = try await probe("otherca", policies: [other])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trust_error"] as? String, "unable to get local issuer certificate")
        assertDecision(try evaluation(json2, "stale-otherca"), "reject", "pin_set_expired")
    }

    func testNamedSetWithoutAPolicyForTheHostIsPolicyMissing() async throws {
        let k = try PKIPins.shared()
        let file = try policy("elsewhere", host: "rsa", pins: [.spki(k.leaf("rsa"))])
        let (r, json) = try await probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "elsewhere")
        assertDecision(e, "accept", "policy_missing")
        XCTAssertTrue(e["pattern"] is NSNull)
        XCTAssertEqual((e["matched_pins"] as? [Any])?.count, 0)
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)

        let (r2, json2) = try await probe("expired", policies: [file])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        assertDecision(try evaluation(json2, "elsewhere"), "reject", "policy_missing")
    }

    func testClosedPortIsProbeFailedWithNoVerdict() async throws {
        let k = try PKIPins.shared()
        let file = try policy("closed", host: "valid", pins: [.spki(k.leaf("valid"))])
        let port = LoopbackPorts.closed()
        let (r, json) = try await probe("valid", policies: [file], port: port)
        XCTAssertEqual(r.status, 1, "\(r)")
        let p = try XCTUnwrap(json["probe"] as? [String: Any])
        XCTAssertEqual(p["success"] as? Bool, false)
        XCTAssertEqual(p["error"] as? String, "connect to 127.0.0.1:\(port): Connection refused")
        XCTAssertTrue(p["tls_version"] is NSNull)
        XCTAssertEqual((json["chain"] as? [Any])?.count, 0)
        XCTAssertEqual(json["trusted"] as? Bool, false)
        let e = try evaluation(json, "closed")
        assertDecision(e, "none", "probe_failed")
        XCTAssertTrue(e["days_to_expiry"] is NSNull)
        XCTAssertTrue(e["pin_horizon"] is NSNull)
    }

    func testSilentPeerTimesOutAtTheGivenDeadline() async throws {
        let k = try PKIPins.shared()
        let file = try policy("silent", host: "valid", pins: [.spki(k.leaf("valid"))])
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        var o = try options("valid", policies: [file], port: peer.port)
        o.timeout = 1
        // The silent peer never answers: the probe returns only at a deadline, and says which one stopped it (the
        // default is 10 s); it waited for it, however long a loaded machine took past it.
        let r = await ProbeCommand.run(o)
        XCTAssertEqual(r.status, 1, "\(r)")
        let json = try XCTUnwrap(try r.json() as? [String: Any])
        let p = try XCTUnwrap(json["probe"] as? [String: Any])
        XCTAssertEqual(p["error"] as? String, "TLS handshake with 127.0.0.1:\(peer.port): timeout after 1s")
        XCTAssertGreaterThanOrEqual(number(p["duration_seconds"]) ?? 0, 0.9)
        assertDecision(try evaluation(json, "silent"), "none", "probe_failed")
    }

    func testIPv6LiteralTarget() async throws {
        guard LoopbackPorts.ipv6Available else { throw XCTSkip("this host has no IPv6 loopback (::1)") }
        let s = try ProbeFarm.shared()
        var o = ProbeCommand.Options(host: "::1", port: s.farm.port, now: Date())
        o.caFile = s.pki.caBundle
        o.json = true
        let r = await ProbeCommand.run(o)
        XCTAssertEqual(r.status, 1, "untrusted: the certificate has no IP address; \(r)")
        let json = try XCTUnwrap(try r.json() as? [String: Any])
        XCTAssertEqual(json["address"] as? String, "[::1]:\(s.farm.port)")
        XCTAssertEqual(json["host"] as? String, "::1")
        XCTAssertEqual(json["trust_error"] as? String, "IP address mismatch")
        XCTAssertEqual((json["probe"] as? [String: Any])?["success"] as? Bool, true)
    }

    // MARK: exit statuses

    func testWithoutPoliciesTheExitStatusFollowsTrust() async throws {
        let (r, json) = try await probe("valid", policies: [])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual((json["evaluations"] as? [Any])?.count, 0)
        let (r2, _) = try await probe("selfsigned", policies: [])
        XCTAssertEqual(r2.status, 1, "\(r2)")
    }

    func testMalformedPolicyFileExitsTwoNamingFileAndLine() async throws {
        let dir = try TemporaryDirectory.make("pinguard-cli-bad")
        let bad = try PolicyYAML.writeMalformed(in: dir)
        let (r, _) = try await probe("valid", policies: [bad], parseJSON: false)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderrText.contains("\(bad):8:"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("not-a-hash"), r.stderrText)

        let (r2, _) = try await probe("valid", policies: [dir.appendingPathComponent("absent.yml").path], parseJSON: false)
        XCTAssertEqual(r2.status, 2, "\(r2)")
        XCTAssertTrue(r2.stderrText.contains("absent.yml"), r2.stderrText)
    }
}
