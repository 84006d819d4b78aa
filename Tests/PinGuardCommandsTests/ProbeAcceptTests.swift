import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `probe` in-process against live servers on loopback: the ways a client accepts (docs/reference.md, Evaluation),
/// with the figures of probe --json.
final class ProbeAcceptTests: ProbeEvaluationTestCase {
    func testPinMatchOnTheLeafKeyWithAReservePin() async throws {
        let k = try PKIPins.shared()
        let file = try policy("leaf-pin", host: "valid", pins: [.spki(k.leaf("valid"), role: "primary", scope: "leaf"),
                                                                .spki(k.reserve, role: "backup")])
        let started = Date()
        let (r, json) = try await probe("valid", policies: [file])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, "\(r)")

        XCTAssertEqual(json["target"] as? String, "valid.pinguard.test:\(try ProbeFarm.shared().farm.port)")
        let p = try XCTUnwrap(json["probe"] as? [String: Any])
        XCTAssertEqual(p["success"] as? Bool, true)
        XCTAssertTrue(p["error"] is NSNull)
        XCTAssertEqual(p["tls_version"] as? String, "TLSv1.3")
        // The probe's own duration, in seconds: within the time the command took, whatever that was.
        XCTAssertLessThanOrEqual(number(p["duration_seconds"]) ?? 99, elapsed)
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
    func testAPinOfTheRawPublicKeyIsNamedWithItsSPKIPin() async throws {
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
        let (r, json) = try await probe("valid", policies: [file])
        XCTAssertEqual(r.status, 1, "the raw-key pin never matches: \(r)")
        let e = try XCTUnwrap((json["evaluations"] as? [[String: Any]])?.first)
        XCTAssertEqual(e["reason"] as? String, "pin_mismatch")
        let found = try XCTUnwrap((e["raw_key_pins"] as? [[String: Any]])?.first, "\(e)")
        XCTAssertEqual(found["pin"] as? String, rawPin)
        XCTAssertEqual(found["depth"] as? Int, 0)
        XCTAssertEqual(found["spki_sha256"] as? String, k.leaf("valid"))

        var text = try options("valid", policies: [file])
        text.json = false
        let table = await ProbeCommand.run(text)
        XCTAssertTrue(table.stdout.contains("raw-key pin: raw-key/prod: pin \(rawPin) is the SHA-256 of the raw public key of the certificate at depth 0"),
                      table.stdout)
        XCTAssertTrue(table.stdout.contains("its SPKI pin is \(k.leaf("valid"))"), table.stdout)
    }

    func testCAPinOnTheIntermediateSetsTheHorizonToItsExpiry() async throws {
        let k = try PKIPins.shared()
        let file = try policy("int-pin", host: "valid", pins: [PinSpec(type: "ca", hash: k.intermediate, scope: "intermediate")])
        let (r, json) = try await probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "int-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(matchedDepths(e), [[1]])
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.intermediateNotAfter))
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, 1824, accuracy: 1.1)
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 90, accuracy: 0.1)
    }

    func testRootScopedPinMatchesOnlyTheRootAddedFromTheStore() async throws {
        let k = try PKIPins.shared()
        let pins = [PinSpec(type: "ca", hash: k.root, scope: "root")]
        let trusted = try policy("root-pin", host: "valid", pins: pins)
        let (r, json) = try await probe("valid", policies: [trusted])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "root-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(matchedDepths(e), [[2]])
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.rootNotAfter))
        XCTAssertEqual(e["reserve_pins"] as? Int, 0)

        // With the system store the root is not in the evaluated chain (the server does not send it),
        // so even a client that skips system trust finds no match.
        let untrusting = try policy("root-pin-no-trust", host: "valid", pins: pins, requireSystemTrust: false)
        let (r2, json2) = try await probe("valid", policies: [untrusting], caFile: false)
        XCTAssertEqual(r2.status, 1, "\(r2)")
        XCTAssertEqual(json2["trusted"] as? Bool, false)
        XCTAssertEqual(json2["trust_error"] as? String, "unable to get local issuer certificate")
        XCTAssertEqual((json2["chain"] as? [[String: Any]])?.map { $0["source"] as? String }, ["served", "served"])
        let e2 = try evaluation(json2, "root-pin-no-trust")
        assertDecision(e2, "reject", "pin_mismatch")
        XCTAssertEqual(e2["reserve_pins"] as? Int, 1)
        XCTAssertTrue(e2["pin_horizon"] is NSNull)
    }

    func testCertificatePinMatchesTheWholeCertificate() async throws {
        let k = try PKIPins.shared()
        let file = try policy("cert-pin", host: "valid", pins: [PinSpec(type: "certificate", hash: k.cert("valid")),
                                                                PinSpec(type: "certificate", hash: k.cert("rotated"))])
        let (r, json) = try await probe("valid", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "cert-pin")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual((e["matched_pins"] as? [[String: Any]])?.map { $0["hash"] as? String }, [k.cert("valid")])
        XCTAssertEqual((e["reserve_pin_list"] as? [[String: Any]])?.map { $0["hash"] as? String }, [k.cert("rotated")])
    }

    func testExpiringLeafReportsFiveDaysToExpiryAndPinBreakage() async throws {
        let k = try PKIPins.shared()
        let file = try policy("expiring", host: "expiring", pins: [.spki(k.leaf("expiring")), .spki(k.reserve, role: "backup")])
        let (r, json) = try await probe("expiring", policies: [file])
        XCTAssertEqual(r.status, 0, "\(r)")
        let e = try evaluation(json, "expiring")
        assertDecision(e, "accept", "pin_match")
        XCTAssertEqual(number(e["days_to_expiry"]) ?? 0, 5, accuracy: 0.1)
        XCTAssertEqual(number(e["days_to_pin_breakage"]) ?? 0, 5, accuracy: 0.1)
        XCTAssertEqual(e["pin_horizon"] as? String, RFC3339.format(k.notAfter("expiring")))
    }

    func testBackupKeyInUseWhenOnlyTheBackupPinMatches() async throws {
        let k = try PKIPins.shared()
        let file = try policy("backup", host: "backup", pins: [.spki(k.leaf("valid"), role: "primary"),
                                                              .spki(k.backupSpare, role: "backup")])
        let (r, json) = try await probe("backup", policies: [file])
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
}
