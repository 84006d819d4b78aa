import Foundation
import XCTest
@testable import PinGuardCore

/// Targets that serve one chain are judged again once per set, pattern and probe, not once per target: a result
/// judged from the memo is the result judged without it, and what differs in a judged fact (trust, the chain,
/// the clients' paths, the probe's failure, the rule that selects the host) gets a decision of its own. Counted
/// in decisions and forecasts made, not timed.
final class JudgementMemoTests: XCTestCase {
    typealias F = ResultFixtures

    let outlooks = DeclaredRenewalOutlook(settings: RenewalSettings(), catalog: .empty)
    let later = F.now.addingTimeInterval(86_400)
    let edit = Rejudging(unchanged: ["web"], policiesChanged: true, outlookChanged: false, ctChanged: false)

    /// The Android app's set: one rule for every host of the domain, and one of its own for `h3`.
    func android(_ pins: [Pin]) -> PolicySet {
        var set = F.set("android-app", [("**.example.com", HostPolicy(pins: pins)), ("h3.example.com", HostPolicy(pins: [F.reservePin]))])
        set.client = .android
        return set
    }

    var web: PolicySet { F.set("web", [("*.example.com", HostPolicy(pins: [F.caPin]))]) }

    /// Probe `i` of the fleet: most serve the chain whose Android paths move to a new root; 7 is not trusted,
    /// 11 serves another leaf, 13 failed and 17 has no client paths.
    func facts(_ i: Int) -> ProbeFacts {
        let host = "h\(i).example.com"
        var f: ProbeFacts
        switch i {
        case 7: f = F.facts(host: host, trusted: false)
        case 11: f = F.facts(host: host, leafKey: 5, leafCert: 15)
        case 13: f = F.facts(host: host, error: "connection refused")
        case 17: f = F.facts(host: host)
        default: f = F.rootMoveFacts()
        }
        f.host = host
        return f
    }

    /// The fleet of `count` targets judged by the Android app and the web, before the edit.
    func fleet(_ count: Int) -> [(Target, TargetResult)] {
        let judge = Judge(sets: [android([F.leafPin, F.caPin]), web], renewals: outlooks)
        return (0..<count).map { i in
            let target = F.target("t\(i)", host: "h\(i).example.com")
            return (target, judge.judge(facts(i), target: target, now: F.now))
        }
    }

    /// Each result of `fleet` judged again after a backup pin is added to the Android set, with `memo` when given.
    func rejudged(_ fleet: [(Target, TargetResult)], memo: JudgementMemo?) -> [TargetResult] {
        let judge = Judge(sets: [android([F.leafPin, F.caPin, F.reservePin]), web], renewals: outlooks)
        return fleet.map { target, result in
            var r = result
            judge.rejudge(&r, for: target, edit, now: later, memo: memo)
            return r
        }
    }

    func assertSame(_ a: [TargetResult], _ b: [TargetResult], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.nodes.map(\.evaluations), y.nodes.map(\.evaluations), "\(x.target.name): decisions", file: file, line: line)
            XCTAssertEqual(x.evaluations, y.evaluations, "\(x.target.name): worst case", file: file, line: line)
            XCTAssertEqual(x.forecasts, y.forecasts, "\(x.target.name): forecasts", file: file, line: line)
            XCTAssertEqual(x.nodes.map(\.facts), y.nodes.map(\.facts), "\(x.target.name): facts", file: file, line: line)
        }
    }

    func testAFleetServingOneChainIsJudgedOncePerSetPatternAndProbe() {
        let fleet = fleet(40)
        let memo = JudgementMemo()
        let withMemo = rejudged(fleet, memo: memo)
        assertSame(withMemo, rejudged(fleet, memo: nil))
        // Decisions of the edited set: the shared chain under `**` and under h3's own rule, and the untrusted,
        // other-leaf, failed and pathless probes: 6. Forecasts: the same but the failed probe (no chain): 5.
        XCTAssertEqual(memo.made, 11, "one decision and one forecast per distinct input, not per target")
        XCTAssertEqual(memo.made + memo.reused, 40 + 39, "every decision and forecast of the edited set was asked of the memo")
        XCTAssertEqual(withMemo[7].nodes[0].evaluations[0].reason, .systemTrustFailed, "the untrusted probe has its own decision")
        XCTAssertEqual(withMemo[3].nodes[0].evaluations[0].pattern, "h3.example.com", "h3's own rule has its own decision")
        XCTAssertEqual(withMemo[3].nodes[0].evaluations[0].verdict, .reject)
        XCTAssertEqual(withMemo[5].nodes[0].evaluations[0].verdict, .accept)
    }

    func testDoublingTheFleetMakesNoMoreDecisions() {
        let small = JudgementMemo(), large = JudgementMemo()
        _ = rejudged(fleet(40), memo: small)
        _ = rejudged(fleet(80), memo: large)
        XCTAssertEqual(large.made, small.made, "the same chains: the same decisions, however many targets serve them")
        XCTAssertGreaterThan(large.reused, 2 * small.reused)
    }

    func testAMemoSmallerThanTheFleetsChainsGivesTheSameResults() {
        let fleet = fleet(40)
        let memo = JudgementMemo(capacity: 2)
        assertSame(rejudged(fleet, memo: memo), rejudged(fleet, memo: nil))
        XCTAssertGreaterThan(memo.made, 11, "a full memo starts again: some decisions are made twice")
    }

    func testOneMemoAcrossEnvironmentsAndNamedSetsKeepsThemApart() {
        var staging = android([F.leafPin, F.caPin, F.reservePin])
        staging.environments["staging"] = PolicyEnvironment(rules: [
            PatternRule(pattern: try! HostPattern.parse("**.example.com"), policy: HostPolicy(pins: [F.reservePin])),
        ])
        let judge = Judge(sets: [staging, web], renewals: outlooks)
        let targets = [F.target("prod", host: "h1.example.com"), F.target("staging", host: "h2.example.com", environment: "staging"),
                       F.target("named", host: "h4.example.com", sets: ["android-app"])]
        let memo = JudgementMemo()
        for target in targets {
            var a = judge.judge(facts(1), target: target, now: F.now)
            var b = a
            judge.rejudge(&a, for: target, Rejudging(unchanged: [], policiesChanged: true, outlookChanged: false, ctChanged: false),
                          now: later, memo: memo)
            judge.rejudge(&b, for: target, Rejudging(unchanged: [], policiesChanged: true, outlookChanged: false, ctChanged: false),
                          now: later)
            assertSame([a], [b])
        }
        XCTAssertEqual(memo.reused, 0, "another environment, or a target that names its sets, is another input")
    }

    func testFactsJudgedAlikeIgnoreOnlyWhatNoDecisionReads() {
        var other = facts(1)
        other.host = "elsewhere.example.com"
        other.port = 8443
        other.duration = 9
        other.finishedAt = later
        XCTAssertTrue(facts(1).judgedAlike(other), "host, port, timings: read by no decision")
        for changed in [facts(7), facts(11), facts(13), facts(17)] {
            XCTAssertFalse(facts(1).judgedAlike(changed), changed.host)
        }
        var ct = facts(1)
        ct.ct.collected = true
        XCTAssertFalse(facts(1).judgedAlike(ct), "the CT observation is read")
    }
}
