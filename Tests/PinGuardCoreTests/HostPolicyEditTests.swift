import Foundation
import XCTest
@testable import PinGuardCore

/// An edit of one host's policy in a set judges again only the targets of that host: a target whose host has
/// the same policy in the edited set keeps its decision and forecast. Counted by markers a fresh judgement
/// would never give, not timed.
final class HostPolicyEditTests: XCTestCase {
    typealias F = ResultFixtures

    let outlooks = DeclaredRenewalOutlook(settings: RenewalSettings(), catalog: .empty)
    let api = HostPolicy(pins: [F.leafPin, F.caPin])
    let www = HostPolicy(pins: [F.caPin])
    let later = F.now.addingTimeInterval(86_400)

    func app(api: HostPolicy, www: HostPolicy, client: CTClient = .none) -> PolicySet {
        var set = F.set("app", [("api.example.com", api), ("www.example.com", www)])
        set.client = client
        return set
    }

    /// `api.example.com` judged by `app`, its decision and forecast marked.
    private func marked() -> TargetResult {
        var result = Judge(sets: [app(api: api, www: www)], renewals: outlooks).judge(F.facts(), target: F.target("api"), now: F.now)
        XCTAssertEqual(result.nodes[0].evaluations.map(\.reservePins), [[]], "both pins match the chain: no reserve")
        XCTAssertEqual(result.forecasts.count, 1)
        result.nodes[0].evaluations[0].reservePins = [F.reservePin]
        result.forecasts[0].rejectRatio = 0.123
        return result
    }

    private func rejudged(by set: PolicySet) -> TargetResult {
        var result = marked()
        Judge(sets: [set], renewals: outlooks).rejudge(
            &result, for: F.target("api"),
            Rejudging(unchanged: [], policiesChanged: true, outlookChanged: false, ctChanged: false, alike: ["app"]), now: later)
        return result
    }

    func testAnEditOfAnotherHostsPolicyKeepsTheDecisionAndForecast() {
        let result = rejudged(by: app(api: api, www: HostPolicy(pins: [F.caPin, F.reservePin])))
        XCTAssertEqual(result.nodes[0].evaluations[0].reservePins, [F.reservePin], "the decision is kept, not made again")
        XCTAssertEqual(result.forecasts[0].rejectRatio, 0.123, "the forecast is kept, not made again")
        XCTAssertEqual(result.nodes[0].evaluations[0].daysToExpiry ?? 0, 89, accuracy: 0.001, "the kept decision is measured at the reload")
    }

    func testAnEditOfTheHostsOwnPolicyJudgesItAgain() {
        let edited = app(api: HostPolicy(pins: [F.leafPin]), www: www)
        let result = rejudged(by: edited)
        let fresh = Judge(sets: [edited], renewals: outlooks).judge(F.facts(), target: F.target("api"), now: later)
        XCTAssertEqual(result.nodes[0].evaluations, fresh.nodes[0].evaluations)
        XCTAssertEqual(result.forecasts, fresh.forecasts)
        XCTAssertEqual(result.forecasts[0].rejectRatio, 1, "the CA pin dropped: a new leaf key breaks the app")
    }

    func testANewRuleThatNowSelectsTheHostJudgesItAgain() {
        var edited = app(api: api, www: www)
        edited.environments["prod"]?.rules.insert(
            PatternRule(pattern: try! HostPattern.parse("*.example.com"), policy: HostPolicy(pins: [F.reservePin])), at: 0)
        edited.environments["prod"]?.rules.removeAll { $0.text == "api.example.com" }
        let result = rejudged(by: edited)
        XCTAssertEqual(result.nodes[0].evaluations[0].pattern, "*.example.com")
        XCTAssertEqual(result.nodes[0].evaluations[0].verdict, .reject, "only an unmatched backup pin is left")
    }
}
