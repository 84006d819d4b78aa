import Foundation
import PinGuardCore
import PinGuardReaders
@testable import PinGuardService
import XCTest

/// A reload of a store large enough to be judged on every core: kept results come out as a fresh
/// judgement by the new policies would, in the new order; what the detector remembers follows each
/// target to its new position; removed targets and changed endpoints leave nothing behind.
final class ResultStoreReloadTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let count = 1_000
    let caKey = Base64.encode([UInt8](repeating: 5, count: 32))
    let backup = Pin(type: .spki, hash: Base64.encode([UInt8](repeating: 7, count: 32)), role: .backup)

    func facts(_ i: Int, port: Int = 443) -> ProbeFacts {
        let ca = ChainCertificate(depth: 1, subject: "CN=Intermediate", issuer: "CN=Root", serial: "02",
                                  notBefore: now.addingTimeInterval(-1e7), notAfter: now.addingTimeInterval(1e8),
                                  spkiSHA256: caKey, certSHA256: Base64.encode([UInt8](repeating: 6, count: 32)), isCA: true)
        var key = [UInt8](repeating: 1, count: 32)
        key[0] = UInt8(i % 256); key[1] = UInt8(i / 256)
        let leaf = ChainCertificate(depth: 0, subject: "CN=t\(i).example", issuer: "CN=Intermediate", serial: String(i, radix: 16),
                                    notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(86_400 * 90),
                                    spkiSHA256: Base64.encode(key), certSHA256: Base64.encode(key.reversed()))
        return ProbeFacts(host: "t\(i).example", port: port, address: "127.0.0.1:\(port)", duration: 0.01, tlsVersion: "TLSv1.3",
                          servedChain: [leaf, ca], verifiedChain: [leaf, ca], trusted: true, finishedAt: now)
    }

    func set(_ name: String, pins: [Pin]) -> PolicySet {
        PolicySet(name: name, environments: ["prod": PolicyEnvironment(rules: [
            PatternRule(pattern: .anyDepth("example"), policy: HostPolicy(pins: pins))])])
    }

    func config(_ indices: [Int], port: (Int) -> Int = { _ in 443 }) -> ServiceConfig {
        var c = ServiceConfig()
        c.targets = indices.map { Target(host: "t\($0).example", port: port($0), name: "t\($0)") }
        return c
    }

    func testAPolicyEditWithTargetsReorderedAddedRemovedAndMoved() throws {
        let sets = [set("app", pins: [Pin(type: .ca, hash: caKey), backup]), set("web", pins: [Pin(type: .ca, hash: caKey)])]
        let store = ResultStore(config: config(Array(0..<count)), sets: sets)
        for i in 0..<count {
            let t = Target(host: "t\(i).example", name: "t\(i)")
            _ = store.record(TargetResult.evaluate(facts(i), target: t, sets: sets, now: now), generation: 0, now: now)
        }
        // "app" loses its CA pin: every target it judges now rejects. "web" is unchanged.
        let edited = [set("app", pins: [backup]), sets[1]]
        // New order: reversed, t0 removed, t1000 added, t5 moved to another port.
        let indices = Array((1..<count).reversed()) + [count]
        let later = now.addingTimeInterval(86_400)
        let events = store.apply(config: config(indices, port: { $0 == 5 ? 8443 : 443 }), sets: edited, now: later)

        XCTAssertEqual(Set(events.filter { $0.event == .pinMismatch }.compactMap { $0.fields.first { $0.0 == "PINGUARD_TARGET" }?.1 }),
                       Set((1..<count).filter { $0 != 5 }.map { "t\($0)" }), "one pin_mismatch per kept target, for the edited set")
        let results = store.results
        XCTAssertEqual(results.map(\.target.name), indices.filter { $0 != 5 && $0 != count }.map { "t\($0)" },
                       "kept results in the new order; the moved and the new target have none")
        XCTAssertNil(store.result(named: "t0"))
        for r in results {
            let fresh = TargetResult.evaluate(r.probe, target: r.target, sets: edited, now: later)
            XCTAssertEqual(r.evaluations, fresh.evaluations, r.target.name)
            XCTAssertEqual(r.evaluations.map(\.verdict), [.reject, .accept], r.target.name)
        }

        // What the detector remembers followed each target: the same probe again says nothing new, while
        // the moved target is reported afresh.
        let t7 = Target(host: "t7.example", name: "t7")
        XCTAssertEqual(store.record(TargetResult.evaluate(facts(7), target: t7, sets: edited, now: later), generation: 1, now: later).map(\.event), [])
        let t5 = Target(host: "t5.example", port: 8443, name: "t5")
        let moved = store.record(TargetResult.evaluate(facts(5, port: 8443), target: t5, sets: edited, now: later), generation: 1, now: later)
        XCTAssertTrue(moved.contains { $0.event == .pinMismatch }, "\(moved.map(\.event))")
    }

    /// "app" with a rule of t3's own (the CA pinned) before the rule every other target takes (`shared`).
    func hostRules(_ shared: [Pin], own: [Pin]? = nil, client: CTClient = .none) -> [PolicySet] {
        var app = PolicySet(name: "app", environments: ["prod": PolicyEnvironment(rules: [
            PatternRule(pattern: .exact("t3.example"), policy: HostPolicy(pins: own ?? [Pin(type: .ca, hash: caKey)])),
            PatternRule(pattern: .anyDepth("example"), policy: HostPolicy(pins: shared))])])
        app.client = client
        return [app]
    }

    func testAnEditOfOneHostsRuleJudgesAgainOnlyTheTargetsItSelects() throws {
        let sets = hostRules([Pin(type: .ca, hash: caKey)])
        let store = ResultStore(config: config(Array(0..<count)), sets: sets)
        for i in 0..<count {
            let t = Target(host: "t\(i).example", name: "t\(i)")
            var result = TargetResult.evaluate(facts(i), target: t, sets: sets, now: now)
            // A mark no judgement gives (the backup pin is in no policy yet): it stays only on a decision kept.
            result.nodes[0].evaluations[0].reservePins = [backup]
            _ = store.record(result, generation: 0, now: now)
        }
        let later = now.addingTimeInterval(86_400)
        let edited = hostRules([Pin(type: .ca, hash: caKey), backup])
        _ = store.apply(config: config(Array(0..<count)), sets: edited, now: later)
        let kept = try XCTUnwrap(store.result(named: "t3"))
        XCTAssertEqual(kept.nodes[0].evaluations[0].reservePins, [backup], "t3's rule is unchanged: its decision is kept, mark and all")
        for r in store.results where r.target.name != "t3" {
            XCTAssertEqual(r.evaluations, TargetResult.evaluate(r.probe, target: r.target, sets: edited, now: later).evaluations, r.target.name)
        }

        // The set's client changed too: every decision reads it, so t3 is judged again as well.
        let otherClient = hostRules([Pin(type: .ca, hash: caKey), backup], client: .jvm)
        _ = store.apply(config: config(Array(0..<count)), sets: otherClient, now: later)
        let t3 = try XCTUnwrap(store.result(named: "t3"))
        XCTAssertEqual(t3.evaluations, TargetResult.evaluate(t3.probe, target: t3.target, sets: otherClient, now: later).evaluations)
        XCTAssertEqual(t3.evaluations[0].reservePins, [], "judged again: the mark is gone")
    }

    func testAnEditOfOneHostsRuleLeavesTheSlicesOfOtherTargetsAsRendered() {
        let n = 2 * ResultStore.sliceSize
        let ca = Pin(type: .ca, hash: caKey)
        let store = ResultStore(config: config(Array(0..<n)), sets: hostRules([ca]))
        for i in 0..<n {
            let t = Target(host: "t\(i).example", name: "t\(i)")
            _ = store.record(TargetResult.evaluate(facts(i), target: t, sets: hostRules([ca]), now: now), generation: 0, now: now)
        }
        let later = now.addingTimeInterval(86_400)
        let rendered = store.sliceVersions
        // t3's own rule gains a backup pin: t3's slice changes, the other slice's results are kept as they are.
        let events = store.apply(config: config(Array(0..<n)), sets: hostRules([ca], own: [ca, backup]), now: later)
        let afterOwn = store.sliceVersions
        XCTAssertNotEqual(afterOwn[0], rendered[0], "t3's slice holds a result judged again")
        XCTAssertEqual(afterOwn[1], rendered[1], "no result of the second slice changed: it is not rendered again")
        XCTAssertEqual(Set(events.compactMap { $0.fields.first { $0.0 == "PINGUARD_TARGET" }?.1 }).subtracting(["t3"]), [],
                       "only t3 was observed again")
        XCTAssertEqual(store.result(named: "t3")?.evaluations[0].reservePins, [backup])
        // The rule every other target takes is edited: every slice changes.
        _ = store.apply(config: config(Array(0..<n)), sets: hostRules([ca, backup], own: [ca, backup]), now: later)
        XCTAssertTrue(zip(store.sliceVersions, afterOwn).allSatisfy { $0 != $1 }, "every slice holds results judged again")
        XCTAssertEqual(store.result(named: "t\(n - 1)")?.evaluations[0].reservePins, [backup])
    }
}
