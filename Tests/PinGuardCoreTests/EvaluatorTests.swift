import Foundation
import XCTest
@testable import PinGuardCore

final class EvaluatorTests: XCTestCase {
    typealias C = Chains
    struct Row {
        var name: String
        var policy: HostPolicy
        var trusted = true
        var probeError: String?
        var verdict: Verdict
        var reason: DecisionReason
        var matched: Int = 0
        var reserve: Int? = nil
    }

    let leafPin = Pin(type: .spki, hash: C.h(1), scope: .leaf)
    let rotatedPin = Pin(type: .spki, hash: C.h(9), scope: .leaf)
    let backupPin = Pin(type: .spki, hash: C.h(8), role: .backup)

    func testEveryReasonAsATable() {
        let rows: [Row] = [
            Row(name: "leaf spki matches", policy: HostPolicy(pins: [leafPin, backupPin]), verdict: .accept, reason: .pinMatch, matched: 1, reserve: 1),
            Row(name: "no pin matches, strict", policy: HostPolicy(pins: [rotatedPin, backupPin]), verdict: .reject, reason: .pinMismatch, reserve: 2),
            Row(name: "fallback to system trust", policy: HostPolicy(pins: [rotatedPin], allowSystemTrustFallback: true), verdict: .accept, reason: .pinMismatchAllowedByFallback),
            Row(name: "fallback needs trust", policy: HostPolicy(pins: [rotatedPin], requireSystemTrust: false, allowSystemTrustFallback: true), trusted: false, verdict: .reject, reason: .pinMismatch),
            Row(name: "permissive mismatch", policy: HostPolicy(pins: [rotatedPin], failStrategy: .permissive), verdict: .accept, reason: .pinMismatchPermissive),
            Row(name: "untrusted strict", policy: HostPolicy(pins: [leafPin]), trusted: false, verdict: .reject, reason: .systemTrustFailed, matched: 1),
            Row(name: "untrusted permissive", policy: HostPolicy(pins: [leafPin], failStrategy: .permissive), trusted: false, verdict: .accept, reason: .systemTrustFailedPermissive, matched: 1),
            Row(name: "untrusted but trust not required", policy: HostPolicy(pins: [leafPin], requireSystemTrust: false), trusted: false, verdict: .accept, reason: .pinMatch, matched: 1),
            Row(name: "empty pin set, trusted", policy: HostPolicy(pins: []), verdict: .accept, reason: .pinSetEmpty),
            Row(name: "empty pin set, untrusted, trust not required", policy: HostPolicy(pins: [], requireSystemTrust: false), trusted: false, verdict: .reject, reason: .pinSetEmpty),
            Row(name: "expired pin set, trusted", policy: HostPolicy(pins: [rotatedPin], expires: C.day(-1)), verdict: .accept, reason: .pinSetExpired),
            Row(name: "expired pin set, untrusted", policy: HostPolicy(pins: [rotatedPin], expires: C.day(-1)), trusted: false, verdict: .reject, reason: .pinSetExpired),
            Row(name: "pin set not yet expired", policy: HostPolicy(pins: [rotatedPin], expires: C.day(1)), verdict: .reject, reason: .pinMismatch),
            Row(name: "probe failed", policy: HostPolicy(pins: [leafPin]), probeError: "connect: refused", verdict: .none, reason: .probeFailed),
        ]
        for row in rows {
            let facts = C.facts(trusted: row.trusted, error: row.probeError)
            let e = Evaluator.evaluate(facts, policySet: C.set(row.policy), environment: "prod", named: false, now: C.now)
            XCTAssertEqual(e?.verdict, row.verdict, row.name)
            XCTAssertEqual(e?.reason, row.reason, row.name)
            XCTAssertEqual(e?.matchedPins.count, row.matched, row.name)
            if let r = row.reserve { XCTAssertEqual(e?.reservePins.count, r, row.name) }
            // What the forecast asks for its candidate chains: the same decision and policy, fewer details.
            let brief = Evaluator.evaluate(facts, policySet: C.set(row.policy), environment: "prod", named: false, now: C.now,
                                           detailed: false)
            XCTAssertEqual(brief?.verdict, row.verdict, row.name)
            XCTAssertEqual(brief?.reason, row.reason, row.name)
            XCTAssertEqual(brief?.policy, e?.policy, row.name)
            XCTAssertEqual(brief?.matchedPins, e?.matchedPins, row.name)
        }
    }

    func testTypesAndScopes() {
        struct R { var pin: Pin; var trusted = true; var matches: Bool; var line: UInt = #line }
        let rows: [R] = [
            R(pin: Pin(type: .spki, hash: C.h(1), scope: .leaf), matches: true),
            R(pin: Pin(type: .spki, hash: C.h(1), scope: .intermediate), matches: false),
            R(pin: Pin(type: .spki, hash: C.h(2), scope: .intermediate), matches: true),
            R(pin: Pin(type: .spki, hash: C.h(2), scope: .root), matches: false),
            R(pin: Pin(type: .spki, hash: C.h(3), scope: .root), matches: true),
            // The root is only in the verified chain: an untrusted chain is judged as served.
            R(pin: Pin(type: .spki, hash: C.h(3), scope: .root), trusted: false, matches: false),
            R(pin: Pin(type: .spki, hash: C.h(3), scope: .any), matches: true),
            R(pin: Pin(type: .certificate, hash: C.h(11), scope: .leaf), matches: true),
            R(pin: Pin(type: .certificate, hash: C.h(1), scope: .any), matches: false),  // an spki hash is not a cert hash
            R(pin: Pin(type: .certificate, hash: C.h(12), scope: .any), matches: true),
            R(pin: Pin(type: .ca, hash: C.h(1), scope: .any), matches: false),  // ca never matches the leaf
            R(pin: Pin(type: .ca, hash: C.h(2), scope: .any), matches: true),
            R(pin: Pin(type: .ca, hash: C.h(3), scope: .root), matches: true),
            R(pin: Pin(type: .ca, hash: C.h(3), scope: .intermediate), matches: false),
        ]
        for r in rows {
            let e = Evaluator.evaluate(C.facts(trusted: r.trusted), policySet: C.set(HostPolicy(pins: [r.pin], requireSystemTrust: false)),
                                       environment: "prod", named: false, now: C.now)!
            XCTAssertEqual(e.reason == .pinMatch, r.matches, "\(r.pin.type) \(r.pin.scope) trusted=\(r.trusted)", line: r.line)
        }
    }

    func testHorizonExpiryReserveAndBackupInUse() {
        let interPin = Pin(type: .ca, hash: C.h(2), role: .backup)
        let leafBackup = Pin(type: .spki, hash: C.h(1), role: .backup, scope: .leaf)
        var e = Evaluator.evaluate(C.facts(), policySet: C.set(HostPolicy(pins: [leafBackup, interPin, rotatedPin])),
                                   environment: "prod", named: false, now: C.now)!
        XCTAssertEqual(e.pinHorizon, C.inter.notAfter, "horizon = latest notAfter among matched certificates")
        XCTAssertEqual(e.daysToPinBreakage!, 400, accuracy: 1e-9)
        XCTAssertEqual(e.earliestExpiry, C.leaf.notAfter)
        XCTAssertEqual(e.daysToExpiry!, 40, accuracy: 1e-9)
        XCTAssertEqual(e.reservePins, [rotatedPin])
        XCTAssertTrue(e.backupInUse)
        XCTAssertTrue(e.isCovered)

        e = Evaluator.evaluate(C.facts(), policySet: C.set(HostPolicy(pins: [leafPin])), environment: "prod", named: false, now: C.now)!
        XCTAssertEqual(e.daysToPinBreakage!, 40, accuracy: 1e-9)
        XCTAssertFalse(e.backupInUse)
        XCTAssertFalse(e.isCovered, "the only pin is in the chain: nothing to rotate to")

        // A pin that matches the chain outside its scope is still not a reserve pin.
        let misScoped = Pin(type: .spki, hash: C.h(1), scope: .intermediate)
        e = Evaluator.evaluate(C.facts(), policySet: C.set(HostPolicy(pins: [leafPin, misScoped])), environment: "prod", named: false, now: C.now)!
        XCTAssertEqual(e.reservePins, [])
    }

    func testPolicyMissingNamedVersusUnnamed() {
        let set = C.set(HostPolicy(pins: [leafPin]), pattern: "other.example.com")
        XCTAssertNil(Evaluator.evaluate(C.facts(), policySet: set, environment: "prod", named: false, now: C.now))
        let named = Evaluator.evaluate(C.facts(), policySet: set, environment: "prod", named: true, now: C.now)!
        XCTAssertEqual(named.reason, .policyMissing)
        XCTAssertEqual(named.verdict, .accept, "the client falls back to default handling: the system-trust result")
        XCTAssertFalse(named.isEvaluated)
        let untrusted = Evaluator.evaluate(C.facts(trusted: false), policySet: set, environment: "prod", named: true, now: C.now)!
        XCTAssertEqual(untrusted.verdict, .reject)
        let wrongEnv = Evaluator.evaluate(C.facts(), policySet: C.set(HostPolicy(pins: [leafPin])), environment: "staging", named: true, now: C.now)!
        XCTAssertEqual(wrongEnv.reason, .policyMissing)
    }

    func testEachGroupNeedsAMatchInEveryGroup() {
        let leafG = Pin(type: .spki, hash: C.h(1), scope: .leaf, group: "leaf")
        let caG = Pin(type: .ca, hash: C.h(2), group: "ca")
        let caOther = Pin(type: .ca, hash: C.h(7), group: "ca")
        let both = HostPolicy(pins: [leafG, caG], matchMode: .eachGroup)
        let onlyLeaf = HostPolicy(pins: [leafG, caOther], matchMode: .eachGroup)
        XCTAssertEqual(Evaluator.evaluate(C.facts(), policySet: C.set(both), environment: "prod", named: false, now: C.now)?.reason, .pinMatch)
        XCTAssertEqual(Evaluator.evaluate(C.facts(), policySet: C.set(onlyLeaf), environment: "prod", named: false, now: C.now)?.reason, .pinMismatch)
        var anyMode = onlyLeaf
        anyMode.matchMode = .any
        XCTAssertEqual(Evaluator.evaluate(C.facts(), policySet: C.set(anyMode), environment: "prod", named: false, now: C.now)?.reason, .pinMatch)
    }

    func testTargetEvaluationSelectsSets() {
        let covering = C.set(HostPolicy(pins: [leafPin]))
        var other = C.set(HostPolicy(pins: [leafPin]), pattern: "x.example.org")
        other.name = "other"
        let all = TargetEvaluation.evaluate(C.facts(), environment: "prod", namedSets: nil, sets: [covering, other], now: C.now)
        XCTAssertEqual(all.map(\.policySet), ["app"])
        let named = TargetEvaluation.evaluate(C.facts(), environment: "prod", namedSets: ["other"], sets: [covering, other], now: C.now)
        XCTAssertEqual(named.map(\.reason), [.policyMissing])
        XCTAssertTrue(TargetEvaluation.evaluate(C.facts(), environment: "prod", namedSets: nil, sets: [other], now: C.now).isEmpty)
    }
}

final class HostPatternTests: XCTestCase {
    func testPrecedenceExactThenOneLabelThenLongestDeep() throws {
        func rule(_ p: String, _ tag: UInt8) throws -> PatternRule {
            PatternRule(pattern: try HostPattern.parse(p), policy: HostPolicy(pins: [Pin(hash: Chains.h(tag))]))
        }
        let env = PolicyEnvironment(rules: [try rule("**.example.com", 1), try rule("**.api.example.com", 2),
                                            try rule("*.example.com", 3), try rule("api.example.com", 4)],
                                    defaultPolicy: HostPolicy(pins: [Pin(hash: Chains.h(5))]))
        XCTAssertEqual(env.policy(for: "API.example.com.")?.pattern, "api.example.com")
        XCTAssertEqual(env.policy(for: "www.example.com")?.pattern, "*.example.com")
        XCTAssertEqual(env.policy(for: "a.b.example.com")?.pattern, "**.example.com")
        XCTAssertEqual(env.policy(for: "v1.api.example.com")?.pattern, "**.api.example.com")
        XCTAssertEqual(env.policy(for: "example.com")?.pattern, "**.example.com")
        XCTAssertEqual(env.policy(for: "example.org")?.pattern, "default")
        XCTAssertNil(PolicyEnvironment(rules: [try rule("a.example.com", 1)]).policy(for: "b.example.com"))
    }

    func testOneLabelWildcardIsExactlyOneLabel() throws {
        let p = try HostPattern.parse("*.example.com")
        XCTAssertTrue(p.matches("a.example.com"))
        XCTAssertFalse(p.matches("example.com"))
        XCTAssertFalse(p.matches("a.b.example.com"))
        XCTAssertFalse(p.matches("aexample.com"))
        let d = try HostPattern.parse("**.example.com")
        XCTAssertTrue(d.matches("example.com"))
        XCTAssertTrue(d.matches("a.b.example.com"))
        XCTAssertFalse(d.matches("badexample.com"))
        XCTAssertFalse(d.matches("xample.com"))
        XCTAssertFalse(p.matches(".example.com"))
    }

    func testHostsAreComparedAsClientsCompareThem() throws {
        let env = PolicyEnvironment(rules: try ["**.example.com", "**.example.com", "*.Example.COM"].enumerated().map { k, text in
            PatternRule(pattern: try HostPattern.parse(text), policy: HostPolicy(pins: [Pin(hash: Chains.h(UInt8(k)))]))
        })
        // Case and one trailing dot do not matter; of two equal deep patterns the first wins.
        XCTAssertEqual(env.policy(for: "WWW.example.com.")?.pattern, "*.example.com")
        XCTAssertEqual(env.policy(for: "a.b.EXAMPLE.com")?.policy.pins.first?.hash, Chains.h(0))
        XCTAssertEqual(HostPattern.normalize("api.example.com"), "api.example.com")
        XCTAssertEqual(HostPattern.normalize("Ünï.Example.com."), "ünï.example.com")
        XCTAssertNil(env.policy(for: "example.org"))
        XCTAssertNil(env.policy(for: "com"))
    }

    func testImpossiblePatternsAreRejected() {
        for bad in ["a.*.com", "*", "***.x", "**", "*.", "a..b", "ex ample.com", "*a.example.com", ""] {
            XCTAssertThrowsError(try HostPattern.parse(bad), bad)
        }
    }
}
