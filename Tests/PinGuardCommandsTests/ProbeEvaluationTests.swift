import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `probe` in-process against live servers on loopback, judging policy files the test writes: every decision
/// reason (docs/reference.md, Evaluation), with the figures and statuses of probe --json.
final class ProbeEvaluationTests: XCTestCase {
    // MARK: accept

    func testPinMatchOnTheLeafKeyWithAReservePin() throws {
        let k = try PKIPins.shared()
        let file = try policy("leaf-pin", host: "valid", pins: [.spki(k.leaf("valid"), role: "primary", scope: "leaf"),
                                                                .spki(k.reserve, role: "backup")])
        let (r, json) = try probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")

        XCTAssertEqual(json["target"] as? String, "valid.pinguard.test:\(try ProbeFarm.shared().farm.port)")
        let p = try XCTUnwrap(json["probe"] as? [String: Any])
        XCTAssertEqual(p["success"] as? Bool, true)
        XCTAssertTrue(p["error"] is NSNull)
        XCTAssertEqual(p["tls_version"] as? String, "TLSv1.3")
        XCTAssertLessThan(number(p["duration_seconds"]) ?? 99, 5)
        XCTAssertEqual(json["trusted"] as? Bool, true)
        XCTAssertTrue(json["trust_error"] is NSNull)
        let chain = try XCTUnwrap(json["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["source"] as? String }, ["served", "served", "store"])
        XCTAssertEqual(chain.map { $0["depth"] as? Int }, [0, 1, 2])
        XCTAssertEqual(chain.map { $0["spki_sha256"] as? String }, [k.leaf("valid"), k.intermediate, k.root])
        XCTAssertEqual(chain.first?["cert_sha256"] as? String, k.cert("valid"))
        XCTAssertEqual(chain.first?["not_after"] as? String, RFC3339.format(k.notAfter("valid")))

        let e = try evaluation(json, "leaf-pin")
        XCTAssertEqual(e["environment"] as? String, "prod")
        XCTAssertEqual(e["pattern"] as? String, "valid.pinguard.test")
        assertDecision(e, "accept", "pin_match")
        let matched = try XCTUnwrap(e["matched_pins"] as? [[String: Any]])
        XCTAssertEqual(matched.count, 1)
        XCTAssertEqual(matched.first?["hash"] as? String, k.leaf("valid"))
        XCTAssertEqual(matched.first?["type"] as? String, "spki")
        XCTAssertEqual(matched.first?["role"] as? String, "primary")
        XCTAssertEqual(matched.first?["scope"] as? String, "leaf")
        XCTAssertEqual(matched.first?["depths"] as? [Int], [0])
        XCTAssertEqual(e["reserve_pins"] as? Int, 1)
        let reserve = try XCTUnwrap(e["reserve_pin_list"] as? [[String: Any]])
        XCTAssertEqual(reserve.map { $0["hash"] as? String }, [k.reserve])
        XCTAssertEqual(reserve.first?["role"] as? String, "backup")
        XCTAssertEqual(e["backup_in_use"] as? Bool, false)
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.notAfter("valid")))
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, k.notAfter("valid").timeIntervalSinceNow / 86_400, accuracy: 0.01)
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, 90, accuracy: 0.1)
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 90, accuracy: 0.1, "the leaf is the first to expire")
    }

    /// A pin made by hashing the raw public key (as some SDKs do) instead of the SPKI is named with the SPKI
    /// pin it should be; the raw hash here is computed with the openssl and python command lines.
    func testAPinOfTheRawPublicKeyIsNamedWithItsSPKIPin() throws {
        let k = try PKIPins.shared()
        let pki = try TestPKI.shared()
        let raw = try CommandRunner.shell(
            "\(OpenSSLTool.path) x509 -in \(CommandRunner.quote(pki.certificate("valid"))) -pubkey -noout"
            + " | \(OpenSSLTool.path) pkey -pubin -outform DER | tail -c 65"
            + " | python3 -c 'import sys,hashlib,base64; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())'")
        let rawPin = raw.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(rawPin.count, 44, "\(raw)")
        let file = try policy("raw-key", host: "valid", pins: [.spki(rawPin, role: "primary", scope: "leaf"),
                                                               .spki(k.reserve, role: "backup")])
        let (r, json) = try probe("valid", policies: [file])
        XCTAssertEqual(r.status, 1, "the raw-key pin never matches: \(r)")
        let e = try XCTUnwrap((json["evaluations"] as? [[String: Any]])?.first)
        XCTAssertEqual(e["reason"] as? String, "pin_mismatch")
        let found = try XCTUnwrap((e["raw_key_pins"] as? [[String: Any]])?.first, "\(e)")
        XCTAssertEqual(found["pin"] as? String, rawPin)
        XCTAssertEqual(found["depth"] as? Int, 0)
        XCTAssertEqual(found["spki_sha256"] as? String, k.leaf("valid"))

        var text = try options("valid", policies: [file])
        text.json = false
        let table = ProbeCommand.run(text)
        XCTAssertTrue(table.stdout.contains("raw-key pin: raw-key/prod: pin \(rawPin) is the SHA-256 of the raw public key of the certificate at depth 0"),
                      table.stdout)
        XCTAssertTrue(table.stdout.contains("its SPKI pin is \(k.leaf("valid"))"), table.stdout)
    }

    func testCAPinOnTheIntermediateSetsTheHorizonToItsExpiry() throws {
        let k = try PKIPins.shared()
        let file = try policy("int-pin", host: "valid", pins: [PinSpec(type: "ca", hash: k.intermediate, scope: "intermediate")])
        let (r, json) = try probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "int-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(matchedDepths(e), [[1]])
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.intermediateNotAfter))
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, 1824, accuracy: 1.1)
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 90, accuracy: 0.1)
    }

    func testRootScopedPinMatchesOnlyTheRootAddedFromTheStore() throws {
        let k = try PKIPins.shared()
        let pins = [PinSpec(type: "ca", hash: k.root, scope: "root")]
        let trusted = try policy("root-pin", host: "valid", pins: pins)
        let (r, json) = try probe("valid", policies: [trusted])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "root-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(matchedDepths(e), [[2]])
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.rootNotAfter))
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)

        // With the system store the root is not in the evaluated chain (the server does not send it),
        // so even a client that skips system trust finds no match.
        let untrusting = try policy("root-pin-no-trust", host: "valid", pins: pins, requireSystemTrust: false)
        let (r2, json2) = try probe("valid", policies: [untrusting], caFile: false)
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trusted"] as? Bool, false)
        XCTAssertEqual(json2["trust_error"] as? String, "unable to get local issuer certificate")
        XCTAssertEqual((json2["chain"] as? [[String: Any]])?.map { $0["source"] as? String }, ["served", "served"])
        let e2 = try evaluation(json2, "root-pin-no-trust")
        assertDecision(e2, "reject", "pin_mismatch")
        XCTAssertEqual(e2["reserve_pins"] as? Int, 1)
        XCTAssertTrue(e2["pin_horizon"] is NSNull)
    }

    func testCertificatePinMatchesTheWholeCertificate() throws {
        let k = try PKIPins.shared()
        let file = try policy("cert-pin", host: "valid", pins: [PinSpec(type: "certificate", hash: k.cert("valid")),
                                                                PinSpec(type: "certificate", hash: k.cert("rotated"))])
        let (r, json) = try probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "cert-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual((e["matched_pins"] as? [[String: Any]])?.map { $0["hash"] as? String }, [k.cert("valid")])
        XCTAssertEqual((e["reserve_pin_list"] as? [[String: Any]])?.map { $0["hash"] as? String }, [k.cert("rotated")])
    }

    func testExpiringLeafReportsFiveDaysToExpiryAndPinBreakage() throws {
        let k = try PKIPins.shared()
        let file = try policy("expiring", host: "expiring", pins: [.spki(k.leaf("expiring")), .spki(k.reserve, role: "backup")])
        let (r, json) = try probe("expiring", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "expiring")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 5, accuracy: 0.1)
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, 5, accuracy: 0.1)
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.notAfter("expiring")))
    }

    func testBackupKeyInUseWhenOnlyTheBackupPinMatches() throws {
        let k = try PKIPins.shared()
        let file = try policy("backup", host: "backup", pins: [.spki(k.leaf("valid"), role: "primary"),
                                                              .spki(k.backupSpare, role: "backup")])
        let (r, json) = try probe("backup", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "backup")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(e["backup_in_use"] as? Bool, true)
        let matched = try XCTUnwrap(e["matched_pins"] as? [[String: Any]])
        XCTAssertEqual(matched.map { $0["hash"] as? String }, [k.backupSpare])
        XCTAssertEqual(matched.map { $0["role"] as? String }, ["backup"])
        XCTAssertEqual(e["reserve_pins"] as? Int, 1)
        XCTAssertEqual((e["reserve_pin_list"] as? [[String: Any]])?.map { $0["hash"] as? String }, [k.leaf("valid")])
    }

    // MARK: mismatch

    func testRotatedKeyIsRejectedByAStrictPolicy() throws {
        let k = try PKIPins.shared()
        let (r, json) = try probe("rotated", policies: [try rotatedPolicy("strict")])
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

    func testRotatedKeyIsAcceptedBySystemTrustFallback() throws {
        let (r, json) = try probe("rotated", policies: [try rotatedPolicy("fallback", fallback: true)])
        XCTAssertEqual(r.status, 0, "\(r)")
        assertDecision(try evaluation(json, "fallback"), "accept", "pin_mismatch_allowed_by_fallback")
    }

    func testRotatedKeyIsAcceptedByAPermissivePolicy() throws {
        let (r, json) = try probe("rotated", policies: [try rotatedPolicy("permissive", failStrategy: "permissive")])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "permissive")
        assertDecision(e, "accept", "pin_mismatch_permissive")
        XCTAssertEqual(e["reserve_pins"] as? Int, 2)
    }

    func testEveryPolicyFileIsEvaluatedAndOneRejectFailsTheRun() throws {
        let files = [try rotatedPolicy("all-strict"), try rotatedPolicy("all-fallback", fallback: true),
                     try rotatedPolicy("all-permissive", failStrategy: "permissive")]
        let (r, json) = try probe("rotated", policies: files)
        XCTAssertEqual(r.status, 1, "\(r)")
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]])
        XCTAssertEqual(list.map { $0["policy_set"] as? String }, ["all-strict", "all-fallback", "all-permissive"])
        XCTAssertEqual(list.map { $0["reason"] as? String },
                       ["pin_mismatch", "pin_mismatch_allowed_by_fallback", "pin_mismatch_permissive"])
    }

    // MARK: system trust

    func testExpiredLeafFailsSystemTrustUnderAStrictPolicy() throws {
        let k = try PKIPins.shared()
        let file = try policy("expired", host: "expired", pins: [.spki(k.leaf("expired"))])
        let (r, json) = try probe("expired", policies: [file])
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

    func testWrongHostFailsSystemTrustUnderAStrictPolicy() throws {
        let k = try PKIPins.shared()
        let file = try policy("wronghost-strict", host: "wronghost", pins: [.spki(k.leaf("wronghost"))])
        let (r, json) = try probe("wronghost", policies: [file])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(json["trust_error"] as? String, "hostname mismatch")
        assertDecision(try evaluation(json, "wronghost-strict"), "reject", "system_trust_failed")
    }

    func testWrongHostIsAcceptedByAPermissivePolicy() throws {
        let k = try PKIPins.shared()
        let file = try policy("wronghost-permissive", host: "wronghost", pins: [.spki(k.leaf("wronghost"))],
                              failStrategy: "permissive")
        let (r, json) = try probe("wronghost", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        assertDecision(try evaluation(json, "wronghost-permissive"), "accept", "system_trust_failed_permissive")
    }

    // MARK: no pins enforced

    func testEmptyPinSetFollowsSystemTrust() throws {
        let trusted = try policy("empty-valid", host: "valid", pins: [])
        let (r, json) = try probe("valid", policies: [trusted])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "empty-valid")
        assertDecision(e, "accept", "pin_set_empty")
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)
        XCTAssertTrue(e["pin_horizon"] is NSNull)

        // Without system trust required, an untrusted chain still gets the trust verdict: reject.
        let untrusted = try policy("empty-selfsigned", host: "selfsigned", pins: [], requireSystemTrust: false)
        let (r2, json2) = try probe("selfsigned", policies: [untrusted])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trust_error"] as? String, "self-signed certificate")
        assertDecision(try evaluation(json2, "empty-selfsigned"), "reject", "pin_set_empty")
    }

    func testExpiredPinSetIsNotEnforced() throws {
        let k = try PKIPins.shared()
        let file = try policy("stale", host: "rotated", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")],
                              expires: "2020-01-01")
        let (r, json) = try probe("rotated", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "stale")
        assertDecision(e, "accept", "pin_set_expired")
        XCTAssertEqual(e["pin_set_expires"] as? String, "2020-01-02T00:00:00Z", "enforced through the whole UTC day")
        XCTAssertEqual(e["reserve_pins"] as? Int, 2)

        let other = try policy("stale-otherca", host: "otherca", pins: [.spki(k.leaf("otherca"))], expires: "2020-01-01")
        let (r2, json2) = try probe("otherca", policies: [other])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trust_error"] as? String, "unable to get local issuer certificate")
        assertDecision(try evaluation(json2, "stale-otherca"), "reject", "pin_set_expired")
    }

    func testNamedSetWithoutAPolicyForTheHostIsPolicyMissing() throws {
        let k = try PKIPins.shared()
        let file = try policy("elsewhere", host: "rsa", pins: [.spki(k.leaf("rsa"))])
        let (r, json) = try probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "elsewhere")
        assertDecision(e, "accept", "policy_missing")
        XCTAssertTrue(e["pattern"] is NSNull)
        XCTAssertEqual((e["matched_pins"] as? [Any])?.count, 0)
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)

        let (r2, json2) = try probe("expired", policies: [file])
        XCTAssertEqual(r2.status, 1, "\(r2)")
        assertDecision(try evaluation(json2, "elsewhere"), "reject", "policy_missing")
    }

    func testClosedPortIsProbeFailedWithNoVerdict() throws {
        let k = try PKIPins.shared()
        let file = try policy("closed", host: "valid", pins: [.spki(k.leaf("valid"))])
        let port = LoopbackPorts.closed()
        let (r, json) = try probe("valid", policies: [file], port: port)
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

    func testSilentPeerTimesOutAtTheGivenDeadline() throws {
        let k = try PKIPins.shared()
        let file = try policy("silent", host: "valid", pins: [.spki(k.leaf("valid"))])
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let started = Date()
        var o = try options("valid", policies: [file], port: peer.port)
        o.timeout = 1
        let r = ProbeCommand.run(o)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(r.status, 1, "\(r)")
        let json = try XCTUnwrap(try r.json() as? [String: Any])
        let p = try XCTUnwrap(json["probe"] as? [String: Any])
        XCTAssertEqual(p["error"] as? String, "TLS handshake with 127.0.0.1:\(peer.port): timeout after 1s")
        XCTAssertEqual(number(p["duration_seconds"]) ?? 0, 1, accuracy: 0.5)
        assertDecision(try evaluation(json, "silent"), "none", "probe_failed")
    }

    func testIPv6LiteralTarget() throws {
        guard LoopbackPorts.ipv6Available else { throw XCTSkip("this host has no IPv6 loopback (::1)") }
        let s = try ProbeFarm.shared()
        var o = ProbeCommand.Options(host: "::1", port: s.farm.port, now: Date())
        o.caFile = s.pki.caBundle
        o.json = true
        let r = ProbeCommand.run(o)
        XCTAssertEqual(r.status, 1, "untrusted: the certificate has no IP address; \(r)")
        let json = try XCTUnwrap(try r.json() as? [String: Any])
        XCTAssertEqual(json["address"] as? String, "[::1]:\(s.farm.port)")
        XCTAssertEqual(json["host"] as? String, "::1")
        XCTAssertEqual(json["trust_error"] as? String, "IP address mismatch")
        XCTAssertEqual((json["probe"] as? [String: Any])?["success"] as? Bool, true)
    }

    // MARK: exit statuses

    func testWithoutPoliciesTheExitStatusFollowsTrust() throws {
        let (r, json) = try probe("valid", policies: [])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual((json["evaluations"] as? [Any])?.count, 0)
        let (r2, _) = try probe("selfsigned", policies: [])
        XCTAssertEqual(r2.status, 1, "\(r2)")
    }

    func testMalformedPolicyFileExitsTwoNamingFileAndLine() throws {
        let dir = try TemporaryDirectory.make("pinguard-cli-bad")
        let bad = try PolicyYAML.write("""
            name: broken
            environments:
              prod:
                policies:
                  - pattern: valid.pinguard.test
                    policy:
                      pins:
                        - {type: spki, hash: "not-a-hash"}

            """, to: dir, as: "broken.yml")
        let (r, _) = try probe("valid", policies: [bad], parseJSON: false)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderrText.contains("\(bad):8:"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("not-a-hash"), r.stderrText)

        let (r2, _) = try probe("valid", policies: [dir.appendingPathComponent("absent.yml").path], parseJSON: false)
        XCTAssertEqual(r2.status, 2, "\(r2)")
        XCTAssertTrue(r2.stderrText.contains("absent.yml"), r2.stderrText)
    }

    // MARK: helpers

    /// A directory for this process's policy files.
    private static let policyDirectory = Result { try TemporaryDirectory.make("pinguard-cli-policies") }

    /// Writes a policy set `name` with one exact-host rule for leaf `host`.
    private func policy(_ name: String, host: String, pins: [PinSpec], failStrategy: String? = nil,
                        requireSystemTrust: Bool? = nil, fallback: Bool? = nil, expires: String? = nil) throws -> String {
        let s = try ProbeFarm.shared()
        let rule = HostPolicySpec(pattern: s.pki.serverName(host), pins: pins, failStrategy: failStrategy,
                                  requireSystemTrust: requireSystemTrust, allowSystemTrustFallback: fallback,
                                  expires: expires)
        return try PolicyYAML.write(PolicyYAML.policySet(name: name, rules: [rule]),
                                    to: try Self.policyDirectory.get(), as: "\(name).yml")
    }

    /// The pins a client shipped before `rotated` got its new key: the old key and a reserve key.
    private func rotatedPolicy(_ name: String, failStrategy: String? = nil, fallback: Bool? = nil) throws -> String {
        let k = try PKIPins.shared()
        return try policy(name, host: "rotated", pins: [.spki(k.leaf("valid")), .spki(k.reserve, role: "backup")],
                          failStrategy: failStrategy, fallback: fallback)
    }

    /// Options probing `NAME.pinguard.test:PORT` at 127.0.0.1 within 5 s as JSON, the test root trusted
    /// unless `caFile` is false.
    private func options(_ leaf: String, policies: [String], caFile: Bool = true, port: Int? = nil) throws -> ProbeCommand.Options {
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
    private func probe(_ leaf: String, policies: [String], caFile: Bool = true, port: Int? = nil,
                       parseJSON: Bool = true) throws -> (CommandOutcome, [String: Any]) {
        let r = ProbeCommand.run(try options(leaf, policies: policies, caFile: caFile, port: port))
        guard parseJSON else { return (r, [:]) }
        return (r, try XCTUnwrap(try r.json() as? [String: Any], "\(r)"))
    }

    private func evaluation(_ json: [String: Any], _ set: String, file: StaticString = #filePath,
                            line: UInt = #line) throws -> [String: Any] {
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]], file: file, line: line)
        return try XCTUnwrap(list.first { $0["policy_set"] as? String == set }, "no evaluation for \(set): \(list)",
                             file: file, line: line)
    }

    private func assertDecision(_ e: [String: Any], _ verdict: String, _ reason: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(e["verdict"] as? String, verdict, "\(e)", file: file, line: line)
        XCTAssertEqual(e["reason"] as? String, reason, "\(e)", file: file, line: line)
    }

    private func matchedDepths(_ e: [String: Any]) -> [[Int]] {
        (e["matched_pins"] as? [[String: Any]] ?? []).map { $0["depths"] as? [Int] ?? [] }
    }

    private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
}
