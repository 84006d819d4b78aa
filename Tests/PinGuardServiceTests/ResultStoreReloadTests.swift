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
}
