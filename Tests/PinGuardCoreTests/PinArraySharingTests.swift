import Foundation
import XCTest
@testable import PinGuardCore

/// Evaluations under one host policy share their arrays of matched and reserve pins, and judging a result
/// again writes its new decisions into the arrays it already holds; neither changes a decision.
final class PinArraySharingTests: XCTestCase {
    typealias F = ResultFixtures

    private func storage<T>(_ array: [T]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    private func evaluation(_ policy: HostPolicy, _ facts: ProbeFacts) throws -> Evaluation {
        try XCTUnwrap(Evaluator.evaluate(facts, policySet: F.set("app", [("**.example.com", policy)]), environment: "prod",
                                         named: false, now: F.now))
    }

    func testTargetsWithTheirOwnLeavesShareOnePolicysPinArrays() throws {
        let policy = HostPolicy(pins: [F.caPin, F.reservePin, Pin(type: .spki, hash: F.h(8), role: .backup)])
        let a = try evaluation(policy, F.facts(host: "a.example.com", leafKey: 40, leafCert: 50))
        let b = try evaluation(policy, F.facts(host: "b.example.com", leafKey: 41, leafCert: 51))
        XCTAssertEqual(a.matchedPins.map(\.pin), [F.caPin])
        XCTAssertEqual(a.reservePins.count, 2)
        XCTAssertEqual(a.matchedPins, b.matchedPins)
        XCTAssertEqual(a.reservePins, b.reservePins)
        XCTAssertEqual(storage(a.matchedPins), storage(b.matchedPins), "one array of matched pins for both targets")
        XCTAssertEqual(storage(a.reservePins), storage(b.reservePins), "one array of reserve pins for both targets")
        // A chain none of the pins match keeps every pin in reserve: the policy's own array.
        let none = try evaluation(policy, F.facts(leafKey: 60, leafCert: 61).withServedChain([F.cert(0, spki: 60, cert: 61, notAfter: 90)]))
        XCTAssertEqual(none.reservePins, policy.pins)
        XCTAssertEqual(storage(none.reservePins), storage(policy.pins))
    }

    /// The shared arrays are what matching itself gives, for duplicates, several depths and scopes.
    func testSharedArraysEqualWhatMatchingGives() throws {
        let pinSets: [[Pin]] = [
            [F.leafPin, F.caPin, F.reservePin],
            [F.caPin, F.caPin, F.leafPin],  // a duplicate pin
            [Pin(type: .spki, hash: F.h(2), scope: .any), Pin(type: .spki, hash: F.h(3), scope: .root), F.reservePin],
            [Pin(type: .certificate, hash: F.h(11)), Pin(type: .spki, hash: F.h(1), group: "leaf"), F.reservePin],
            [],
        ]
        let chains: [ProbeFacts] = [
            F.facts(), F.facts(leafKey: 2, leafCert: 22),  // the leaf's key is also the intermediate's: two depths
            F.facts(leafKey: 70, leafCert: 71), F.facts(trusted: false), F.facts(error: "refused"),
        ]
        for pins in pinSets {
            let policy = HostPolicy(pins: pins)
            for round in 0..<2 {  // the second time from the policy's table
                for facts in chains {
                    let e = try evaluation(policy, facts)
                    let chain = facts.evaluatedChain
                    let what = "\(pins.map(\.label)) on \(chain.map(\.spkiSHA256)), pass \(round)"
                    XCTAssertEqual(e.matchedPins, facts.success ? Evaluator.matches(pins, in: chain) : [], what)
                    XCTAssertEqual(e.reservePins, facts.success ? Evaluator.reservePins(pins, chain: chain) : [], what)
                }
            }
        }
    }

    /// A copy of a policy whose pins are then changed never answers from the original's table.
    func testAPolicyWhosePinsChangeHasSubsetsOfItsOwn() throws {
        let original = HostPolicy(pins: [F.caPin, F.reservePin])
        let facts = F.facts()
        let before = try evaluation(original, facts)
        XCTAssertEqual(before.reservePins, [F.reservePin])
        var edited = original
        edited.pins = [F.reservePin, F.caPin, Pin(type: .spki, hash: F.h(8), role: .backup)]
        let after = try evaluation(edited, facts)
        XCTAssertEqual(after.matchedPins, Evaluator.matches(edited.pins, in: facts.evaluatedChain))
        XCTAssertEqual(after.reservePins, [F.reservePin, Pin(type: .spki, hash: F.h(8), role: .backup)])
        XCTAssertEqual(try evaluation(original, facts).reservePins, [F.reservePin], "the original's table is untouched")
        XCTAssertEqual(original, HostPolicy(pins: [F.caPin, F.reservePin]), "the table is not part of the policy's identity")
    }

    func testJudgingAgainInPlaceWritesIntoTheArraysTheResultHolds() {
        let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        let web = F.set("web", [("**.example.com", HostPolicy(pins: [F.caPin]))])
        let edited = F.set("app", [("api.example.com", HostPolicy(pins: [F.reservePin]))])
        let target = F.target("api")
        var result = F.result(target, F.facts(), [app, web])
        let fresh = TargetResult.evaluate(result.probe, target: target, sets: [edited, web], now: F.day(2))
        let nodes = storage(result.nodes), decisions = storage(result.nodes[0].evaluations)
        result.rejudge(for: target, sets: [edited, web], unchanged: ["web"], now: F.day(2))
        XCTAssertEqual(result.nodes.map(\.evaluations), fresh.nodes.map(\.evaluations))
        XCTAssertEqual(result.evaluations, fresh.evaluations)
        XCTAssertEqual(result.evaluations.first?.verdict, .reject)
        XCTAssertEqual(storage(result.nodes), nodes, "the nodes array is kept")
        XCTAssertEqual(storage(result.nodes[0].evaluations), decisions, "the decisions are written into the array they replace")
        XCTAssertEqual(storage(result.evaluations), decisions, "a single address's worst case is its own decisions")
    }
}

private extension ProbeFacts {
    func withServedChain(_ chain: [ChainCertificate]) -> ProbeFacts {
        var f = self
        f.servedChain = chain
        f.verifiedChain = []
        f.trusted = false
        return f
    }
}
