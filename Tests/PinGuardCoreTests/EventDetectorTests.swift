import Foundation
import XCTest
@testable import PinGuardCore

/// Journal events from successive results (docs/reference.md, Journal events): written on state change and once at start.
final class EventDetectorTests: XCTestCase {
    typealias F = ResultFixtures

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
    let target = F.target("api")

    func events(_ entries: [JournalEntry]) -> [String] { entries.map(\.event.rawValue) }

    func testFirstObservationIsReportedOnceThenOnlyChanges() {
        var d = EventDetector(warningDays: 30)
        let first = d.observe(F.result(target, F.facts(), [app]))
        XCTAssertEqual(events(first), ["pin_matched"])
        for _ in 0..<3 { XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), [], "same state, nothing new") }
        // The client's decision changes: announced once.
        let rotatedAway = F.set("app", [("api.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(7), scope: .leaf), F.reservePin]))])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [rotatedAway]))), ["pin_mismatch"])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [rotatedAway]))), [])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), ["pin_matched"])
    }

    func testProbeFailedThenRecovered() throws {
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), ["pin_matched"])
        let failed = d.observe(F.result(target, F.facts(error: "connect to 127.0.0.1:443: Connection refused"), [app]))
        XCTAssertEqual(events(failed), ["probe_failed"])
        let f = try XCTUnwrap(failed.first)
        XCTAssertEqual(f.field("PINGUARD_ERROR"), "connect to 127.0.0.1:443: Connection refused")
        XCTAssertEqual(f.field("PINGUARD_TARGET"), "api")
        XCTAssertEqual(f.field("PINGUARD_HOST"), "api.example.com")
        XCTAssertEqual(f.field("PINGUARD_PORT"), "443")
        XCTAssertEqual(f.field("PRIORITY"), "3")
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(error: "timeout"), [app]))), [], "still failing")
        let recovered = d.observe(F.result(target, F.facts(), [app]))
        XCTAssertEqual(events(recovered), ["probe_recovered"], "the decision is the same as before the failure")
        XCTAssertEqual(recovered.first?.field("PINGUARD_LEAF_SPKI_SHA256"), F.h(1))
        XCTAssertEqual(recovered.first?.field("PRIORITY"), "5")
    }

    func testAFirstProbeThatFailsIsReportedAndItsRecoveryToo() {
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(error: "timeout"), [app]))), ["probe_failed"])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), ["probe_recovered", "pin_matched"])
    }

    func testChainChangedWhenTheLeafKeyOrTheChainChanges() throws {
        var d = EventDetector(warningDays: 30)
        _ = d.observe(F.result(target, F.facts(leafKey: 1, leafCert: 11), [app]))
        // A renewal that keeps the key: the chain changed, the key did not.
        let renewed = d.observe(F.result(target, F.facts(leafKey: 1, leafCert: 21), [app]))
        XCTAssertEqual(events(renewed), ["chain_changed"])
        XCTAssertTrue(renewed[0].message.contains("same leaf key"), renewed[0].message)
        XCTAssertEqual(renewed[0].field("PINGUARD_LEAF_SPKI_SHA256"), F.h(1))
        // A new key: the chain changed and the leaf pin no longer matches.
        let rotated = d.observe(F.result(target, F.facts(leafKey: 5, leafCert: 25), [app]))
        XCTAssertEqual(events(rotated), ["chain_changed", "pin_mismatch"])
        let changed = try XCTUnwrap(rotated.first)
        XCTAssertEqual(changed.field("PINGUARD_LEAF_SPKI_SHA256"), F.h(5))
        XCTAssertEqual(changed.field("PINGUARD_PREVIOUS_LEAF_SPKI_SHA256"), F.h(1))
        XCTAssertTrue(changed.message.contains("leaf key changed"), changed.message)
        XCTAssertEqual(changed.field("MESSAGE_ID"), JournalEvent.chainChanged.messageID)
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(leafKey: 5, leafCert: 25), [app]))), [])
    }

    func testAFailedProbeInBetweenIsNotAChainChange() {
        var d = EventDetector(warningDays: 30)
        _ = d.observe(F.result(target, F.facts(), [app]))
        _ = d.observe(F.result(target, F.facts(error: "timeout"), [app]))
        XCTAssertFalse(events(d.observe(F.result(target, F.facts(), [app]))).contains("chain_changed"))
    }

    func testBackupPinInUse() throws {
        let primary = Pin(type: .spki, hash: F.h(1), role: .primary, scope: .leaf)
        let backup = Pin(type: .spki, hash: F.h(5), role: .backup, scope: .leaf)
        let set = F.set("app", [("api.example.com", HostPolicy(pins: [primary, backup]))])
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(leafKey: 1), [set]))), ["pin_matched"])
        let rotated = d.observe(F.result(target, F.facts(leafKey: 5, leafCert: 25), [set]))
        XCTAssertEqual(events(rotated), ["chain_changed", "backup_pin_in_use"], "still pin_match: no decision event")
        let b = try XCTUnwrap(rotated.last)
        XCTAssertEqual(b.field("PINGUARD_MATCHED_PINS"), "spki:\(F.h(5))")
        XCTAssertEqual(b.field("PINGUARD_RESERVE_PINS"), "1")
        XCTAssertEqual(b.field("PINGUARD_POLICY_SET"), "app")
        XCTAssertEqual(b.field("PRIORITY"), "4")
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(leafKey: 5, leafCert: 25), [set]))), [])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(leafKey: 1), [set]))), ["chain_changed"])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(leafKey: 5, leafCert: 25), [set]))), ["chain_changed", "backup_pin_in_use"],
                       "a new rotation onto the backup is reported again")

        // A first observation already on the backup key is reported at start.
        var fresh = EventDetector(warningDays: 30)
        XCTAssertEqual(events(fresh.observe(F.result(target, F.facts(leafKey: 5), [set]))), ["pin_matched", "backup_pin_in_use"])
    }

    func testReservePinMissing() throws {
        let bare = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
        var d = EventDetector(warningDays: 30)
        let first = d.observe(F.result(target, F.facts(), [bare]))
        XCTAssertEqual(events(first), ["pin_matched", "reserve_pin_missing"])
        XCTAssertEqual(first.last?.field("PINGUARD_RESERVE_PINS"), "0")
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [bare]))), [])
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), [], "a reserve pin was shipped: no event")
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [bare]))), ["reserve_pin_missing"], "and lost again")

        // No pins at all is pin_set_empty, not a missing reserve.
        var e = EventDetector(warningDays: 30)
        let empty = F.set("app", [("api.example.com", HostPolicy(pins: []))])
        XCTAssertEqual(events(e.observe(F.result(target, F.facts(), [empty]))), ["pin_set_empty"])
        // A failed probe says nothing about reserve pins.
        var g = EventDetector(warningDays: 30)
        XCTAssertEqual(events(g.observe(F.result(target, F.facts(error: "timeout"), [bare]))), ["probe_failed"])
    }

    func testPolicyMissing() throws {
        var d = EventDetector(warningDays: 30)
        let stranger = F.target("stranger", host: "stranger.example.org")
        let uncovered = d.observe(F.result(stranger, F.facts(host: "stranger.example.org"), [app]))
        XCTAssertEqual(events(uncovered), ["policy_missing"])
        let e = try XCTUnwrap(uncovered.first)
        XCTAssertEqual(e.field("PINGUARD_REASON"), "policy_missing")
        XCTAssertEqual(e.field("PINGUARD_ENVIRONMENT"), "prod")
        XCTAssertEqual(e.field("PINGUARD_HOST"), "stranger.example.org")
        XCTAssertNil(e.field("PINGUARD_POLICY_SET"), "no set covers it")
        XCTAssertEqual(e.field("MESSAGE_ID"), JournalEvent.policyMissing.messageID)
        XCTAssertEqual(events(d.observe(F.result(stranger, F.facts(host: "stranger.example.org"), [app]))), [])

        // A set the target names but that has no policy for the host: policy_missing for that set.
        let named = F.target("named", host: "stranger.example.org", sets: ["app"])
        let missing = d.observe(F.result(named, F.facts(host: "stranger.example.org"), [app]))
        XCTAssertEqual(events(missing), ["policy_missing"])
        XCTAssertEqual(missing.first?.field("PINGUARD_POLICY_SET"), "app")
        XCTAssertEqual(missing.first?.field("PINGUARD_VERDICT"), "accept", "default handling: the system-trust result")
    }

    func testEveryDecisionReasonHasItsEvent() {
        let other = Pin(type: .spki, hash: F.h(7))
        let rows: [(HostPolicy, Bool, JournalEvent)] = [
            (HostPolicy(pins: [F.leafPin]), true, .pinMatched),
            (HostPolicy(pins: [other]), true, .pinMismatch),
            (HostPolicy(pins: [other], allowSystemTrustFallback: true), true, .pinMismatchAllowedByFallback),
            (HostPolicy(pins: [other], failStrategy: .permissive), true, .pinMismatchPermissive),
            (HostPolicy(pins: [F.leafPin]), false, .systemTrustFailed),
            (HostPolicy(pins: [F.leafPin], failStrategy: .permissive), false, .systemTrustFailedPermissive),
            (HostPolicy(pins: []), true, .pinSetEmpty),
            (HostPolicy(pins: [other], expires: F.day(-1)), true, .pinSetExpired),
        ]
        for (policy, trusted, event) in rows {
            var d = EventDetector(warningDays: 0)
            let set = F.set("app", [("api.example.com", policy)])
            let out = d.observe(F.result(target, F.facts(trusted: trusted), [set]))
            XCTAssertEqual(out.first?.event, event, "\(out.map(\.event))")
            XCTAssertEqual(out.first?.field("PINGUARD_EVENT"), event.rawValue)
            XCTAssertEqual(out.first?.field("MESSAGE_ID"), event.messageID)
            XCTAssertEqual(out.first?.field("PRIORITY"), String(event.priority))
            XCTAssertEqual(out.first?.field("PINGUARD_REASON"), event == .pinMatched ? "pin_match" : event.rawValue)
        }
        for reason in DecisionReason.allCases {
            let event = EventDetector.event(for: reason)
            XCTAssertEqual(event.rawValue, reason == .pinMatch ? "pin_matched" : reason.rawValue, "\(reason)")
        }
    }

    func testFieldsOfADecisionEvent() throws {
        var d = EventDetector(warningDays: 30)
        let t = F.target("api-eu", host: "api.example.com", port: 8443)
        let entry = try XCTUnwrap(d.observe(F.result(t, F.facts(port: 8443, leafDays: 60), [app])).first)
        XCTAssertEqual(entry.event, .pinMatched)
        let expected: [(String, String)] = [
            ("MESSAGE", entry.message), ("MESSAGE_ID", JournalEvent.pinMatched.messageID), ("PRIORITY", "6"),
            ("SYSLOG_IDENTIFIER", "pinguard"), ("PINGUARD_EVENT", "pin_matched"),
            ("PINGUARD_TARGET", "api-eu"), ("PINGUARD_HOST", "api.example.com"), ("PINGUARD_PORT", "8443"),
            ("PINGUARD_ADDRESS", "127.0.0.1:8443"), ("PINGUARD_LEAF_SPKI_SHA256", F.h(1)), ("PINGUARD_POLICY_SET", "app"), ("PINGUARD_ENVIRONMENT", "prod"),
            ("PINGUARD_REASON", "pin_match"), ("PINGUARD_VERDICT", "accept"), ("PINGUARD_MATCHED_PINS", "spki:\(F.h(1))"),
            ("PINGUARD_RESERVE_PINS", "1"), ("PINGUARD_DAYS_TO_EXPIRY", "60.0"), ("PINGUARD_DAYS_TO_PIN_BREAKAGE", "60.0"),
        ]
        XCTAssertEqual(entry.allFields.map { "\($0.0)=\($0.1)" }, expected.map { "\($0.0)=\($0.1)" })
        XCTAssertTrue(entry.message.hasPrefix("api-eu: app/prod accepts"), entry.message)

        // A mismatch lists no matched pins and every reserve, and has no pin breakage (nothing matches).
        let rotated = F.set("app", [("api.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(7)), F.reservePin]))])
        var e = EventDetector(warningDays: 30)
        let mismatch = try XCTUnwrap(e.observe(F.result(t, F.facts(port: 8443), [rotated])).first)
        XCTAssertEqual(mismatch.event, .pinMismatch)
        XCTAssertEqual(mismatch.field("PINGUARD_MATCHED_PINS"), "")
        XCTAssertEqual(mismatch.field("PINGUARD_RESERVE_PINS"), "2")
        XCTAssertEqual(mismatch.field("PINGUARD_VERDICT"), "reject")
        XCTAssertNil(mismatch.field("PINGUARD_DAYS_TO_PIN_BREAKAGE"))
        XCTAssertTrue(mismatch.message.contains("REJECTS"), mismatch.message)
    }

    func testSeveralPolicySetsAreTrackedSeparately() {
        let android = F.set("android", [("**.example.com", HostPolicy(pins: [F.caPin, F.reservePin]))])
        var d = EventDetector(warningDays: 30)
        let first = d.observe(F.result(target, F.facts(), [app, android]))
        XCTAssertEqual(first.map { "\($0.event.rawValue) \($0.field("PINGUARD_POLICY_SET") ?? "-")" }, ["pin_matched app", "pin_matched android"])
        let appRotated = F.set("app", [("api.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(7))]))])
        let next = d.observe(F.result(target, F.facts(), [appRotated, android]))
        XCTAssertEqual(next.map { "\($0.event.rawValue) \($0.field("PINGUARD_POLICY_SET") ?? "-")" }, ["pin_mismatch app"],
                       "android is unchanged; the new app pin is not served, so it is a reserve")
    }

    func testRetainForgetsRemovedTargets() {
        var d = EventDetector(warningDays: 30)
        let other = F.target("other")
        _ = d.observe(F.result(target, F.facts(), [app]))
        _ = d.observe(F.result(other, F.facts(), [app]))
        d.retain(targets: ["other"])
        XCTAssertEqual(events(d.observe(F.result(other, F.facts(), [app]))), [], "kept")
        XCTAssertEqual(events(d.observe(F.result(target, F.facts(), [app]))), ["pin_matched"], "forgotten: announced again")
    }

    func testMessageIDsAreStableDistinct128BitIDs() {
        let ids = JournalEvent.allCases.map(\.messageID)
        XCTAssertEqual(JournalEvent.allCases.count, 39, "docs/reference.md, Journal events, lists 39 events")
        XCTAssertEqual(Set(ids).count, ids.count, "one MESSAGE_ID per event")
        for (event, id) in zip(JournalEvent.allCases, ids) {
            XCTAssertEqual(id.count, 32, "\(event)")
            XCTAssertTrue(id.allSatisfy { "0123456789abcdef".contains($0) }, "\(event): \(id)")
            XCTAssertTrue((3...6).contains(event.priority), "\(event)")
            XCTAssertFalse(event.summary.isEmpty)
        }
        XCTAssertEqual(Set(JournalEvent.allCases.map(\.rawValue)), [
            "policy_missing", "system_trust_failed", "system_trust_failed_permissive", "pin_matched", "pin_mismatch",
            "pin_mismatch_allowed_by_fallback", "pin_mismatch_permissive", "pin_set_empty", "pin_set_expired", "probe_failed",
            "probe_recovered", "chain_changed", "backup_pin_in_use", "reserve_pin_missing", "expiry_warning",
            "pin_breakage_imminent", "config_loaded", "config_invalid", "policy_lint_finding", "resolution_failed",
            "address_set_changed", "addresses_over_limit", "chain_divergence", "mtls_identity_used", "mtls_identity_missing",
            "policy_bundle_rejected", "raw_key_pin", "certificate_renewed", "chain_rollback", "state_not_persisted",
            "state_unavailable", "state_recovered", "renewal_will_break_pins",
            "ct_not_compliant", "staged_chain_rejected", "staged_chain_unreadable", "certificate_revoked", "early_renewal_requested",
            "served_chain_hazard",
        ])
    }

    func testConfigurationEvents() {
        let loaded = JournalEntry.configLoaded(path: "/etc/pinguard/pinguard.yml", targets: 3, policySets: ["ios", "android"])
        XCTAssertEqual(loaded.field("PINGUARD_EVENT"), "config_loaded")
        XCTAssertEqual(loaded.field("PINGUARD_CONFIG"), "/etc/pinguard/pinguard.yml")
        XCTAssertEqual(loaded.field("PINGUARD_TARGETS"), "3")
        XCTAssertEqual(loaded.field("PRIORITY"), "6")
        XCTAssertTrue(loaded.message.contains("ios, android"), loaded.message)
        let invalid = JournalEntry.configInvalid(path: "/etc/pinguard/pinguard.yml", error: "line 3: unknown key \"x\"")
        XCTAssertEqual(invalid.field("PINGUARD_ERROR"), "line 3: unknown key \"x\"")
        XCTAssertEqual(invalid.field("MESSAGE_ID"), JournalEvent.configInvalid.messageID)
        XCTAssertEqual(invalid.field("PRIORITY"), "3")
        XCTAssertTrue(invalid.message.contains("previous one kept"), invalid.message)
    }

    /// Day counts in journal fields and messages read as `%.1f` prints them, rounding, sign and size alike.
    func testDayCountsReadAsPrintfPrintsThem() {
        let values: [Double] = [0, -0.0, 0.05, 0.25, 0.35, -0.04, -12.96, 89.99999, 1e6 + 0.05, 2_932_896.3, 1e300,
                                -1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude]
        for d in values { XCTAssertEqual(EventDetector.days(d), String(format: "%.1f", d), "\(d)") }
        // Day counts of every size and sign, and values a hair from a tie (x.x5), where rounding is decided.
        var generator = SystemRandomNumberGenerator()
        let random = (0..<20_000).map { k in Double.random(in: -1e7...1e7, using: &generator) / Double(1 << (k % 24)) }
        let nearTies = (0..<2_000).flatMap { k -> [Double] in
            let tie = Double(k - 1_000) / 10 + 0.05
            return [tie, tie.nextUp, tie.nextDown, tie + 1e-7, tie - 1e-7]
        }
        let mismatches = (random + nearTies).filter { EventDetector.days($0) != String(format: "%.1f", $0) }
        XCTAssertEqual(mismatches, [], "\(mismatches.prefix(5).map { ($0, EventDetector.days($0), String(format: "%.1f", $0)) })")
    }
}
