import Foundation
import XCTest
@testable import PinGuardCore

/// Judging a result again after a policy edit: the decisions of the sets that did not change are kept,
/// and the whole comes out as a fresh judgement would.
final class RejudgingTests: XCTestCase {
    typealias F = ResultFixtures

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
    let web = F.set("web", [("**.example.com", HostPolicy(pins: [F.caPin]))])
    let later = F.now.addingTimeInterval(3 * 86_400)

    private func nodes(_ r: TargetResult) -> [[Evaluation]] { r.nodes.map(\.evaluations) }

    /// Every way the sets can change between a probe and a reload gives what judging from scratch gives.
    func testKeepingUnchangedSetsGivesWhatAFreshJudgementGives() {
        let edited = F.set("app", [("api.example.com", HostPolicy(pins: [F.reservePin]))])
        let added = F.set("extra", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
        let cases: [(String, [PolicySet])] = [
            ("app edited", [edited, web]), ("nothing edited", [app, web]), ("web removed", [app]),
            ("a set added first", [added, app, web]), ("order swapped", [web, app]), ("both edited", [edited, added]),
        ]
        for target in [F.target("api"), F.target("named", sets: ["web", "app", "extra"])] {
            let old = F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()),
                                               F.at("10.0.0.2:443", F.facts(leafKey: 7, leafCert: 17, leafDays: 20))], [app, web])
            for (what, sets) in cases {
                let unchanged = Set(sets.filter { s in [app, web].contains(s) }.map(\.name))
                let rejudged = old.rejudged(for: target, sets: sets, unchanged: unchanged, now: later)
                let fresh = TargetResult.evaluate(old.probe, target: target, sets: sets, now: later)
                XCTAssertEqual(nodes(rejudged), nodes(fresh), "\(target.name), \(what): per address")
                XCTAssertEqual(rejudged.evaluations, fresh.evaluations, "\(target.name), \(what): worst case")
            }
        }
    }

    func testAKeptDecisionHasItsDaysCountedFromTheReload() {
        let old = F.result(F.target("api"), F.facts(leafDays: 90), [app])
        let rejudged = old.rejudged(for: F.target("api"), sets: [app], unchanged: ["app"], now: later)
        XCTAssertEqual(try XCTUnwrap(rejudged.evaluations.first?.daysToExpiry), 87, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(rejudged.evaluations.first?.daysToPinBreakage), 87, accuracy: 1e-9)
        XCTAssertEqual(rejudged.evaluations.first?.verdict, .accept)
    }

    func testANewEnvironmentIsJudgedAfreshEvenForUnchangedSets() {
        let staging = F.set("app", environment: "staging", [("api.example.com", HostPolicy(pins: [F.caPin]))])
        let both = PolicySet(name: "app", environments: app.environments.merging(staging.environments) { a, _ in a })
        let old = F.result(F.target("api"), F.facts(leafKey: 7, leafCert: 17), [both])
        XCTAssertEqual(old.evaluations.first?.verdict, .reject, "prod pins the leaf, which this probe does not serve")
        let moved = F.target("api", environment: "staging")
        let rejudged = old.rejudged(for: moved, sets: [both], unchanged: ["app"], now: later)
        XCTAssertEqual(rejudged.evaluations.first?.environment, "staging")
        XCTAssertEqual(rejudged.evaluations.first?.verdict, .accept, "staging pins the CA: judged, not taken from prod")
    }
}
