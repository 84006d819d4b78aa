import Foundation
import PinGuardCore
import PinGuardCoreTestSupport
import XCTest

private typealias F = ResultFixtures

/// A CA that asks for an early renewal (its ARI window ended, or it explains an incident): one situation per
/// app, critical when that renewal breaks the app, and one event per window.
final class EarlyRenewalTests: XCTestCase {
    private let leafPinned = F.set("ios-app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
    private let caPinned = F.set("web", [("api.example.com", HostPolicy(pins: [F.caPin]))])

    private func result(window: RenewalWindow?, sets: [PolicySet]) -> TargetResult {
        var r = F.result(F.target("api"), F.facts(), sets)
        var outlook = RenewalOutlook(nextRenewal: window?.start ?? F.day(60), key: .rotate, keyBasis: .declared,
                                     issuers: [IssuerOption(name: "Intermediate", chain: [F.intermediate, F.root])], issuerBasis: .current)
        outlook.window = window
        outlook.whenBasis = window == nil ? .lifetime : .ari
        r.forecast(with: outlook, sets: sets)
        return r
    }

    private let incident = RenewalWindow(start: F.day(-0.5), end: F.day(0.5), explanationURL: "https://ca.example/incident")

    func testTheAppTheRequestedRenewalBreaksIsCriticalAndTheOthersAreWarned() {
        let situations = SituationAssessor.assess(result(window: incident, sets: [leafPinned, caPinned]), now: F.now)

        let app = situations.first { $0.policySet == "ios-app" }
        let wide = situations.first { $0.policySet.isEmpty }
        XCTAssertEqual(app?.kind, .earlyRenewalRequested)
        XCTAssertEqual(app?.severity, .critical)
        XCTAssertEqual(app?.summary.contains("breaks ios-app (prod)"), true, app?.summary ?? "")
        XCTAssertEqual(app?.action.contains("https://ca.example/incident"), true, app?.action ?? "")
        XCTAssertEqual(wide?.kind, .earlyRenewalRequested)
        XCTAssertEqual(wide?.severity, .warning)
        XCTAssertEqual(wide?.apps, ["web/prod"])
    }

    func testAWindowThatEndedAsksWithoutAnExplanationAndIsNotCalledOverdue() {
        let ended = RenewalWindow(start: F.day(-3), end: F.day(-1))
        let situations = SituationAssessor.assess(result(window: ended, sets: [caPinned]), now: F.now)

        XCTAssertEqual(situations.map(\.kind), [.earlyRenewalRequested])
        XCTAssertEqual(situations.first?.summary.contains("its renewal window ended on"), true)
    }

    func testAFutureWindowIsTheForecastAndNoSituation() {
        let normal = RenewalWindow(start: F.day(40), end: F.day(42))
        XCTAssertEqual(SituationAssessor.assess(result(window: normal, sets: [caPinned]), now: F.now), [])
    }

    func testTheEventIsWrittenOncePerWindow() {
        let first = EarlyRenewalEvents.changes(from: result(window: nil, sets: [leafPinned]), to: result(window: incident, sets: [leafPinned]))
        let again = EarlyRenewalEvents.changes(from: result(window: incident, sets: [leafPinned]), to: result(window: incident, sets: [leafPinned]))
        let moved = RenewalWindow(start: F.day(-0.2), end: F.day(0.3), explanationURL: "https://ca.example/incident")
        let next = EarlyRenewalEvents.changes(from: result(window: incident, sets: [leafPinned]), to: result(window: moved, sets: [leafPinned]))

        XCTAssertEqual(first.map(\.event), [.earlyRenewalRequested])
        XCTAssertEqual(first.first?.fields.first { $0.0 == "PINGUARD_EXPLANATION_URL" }?.1, "https://ca.example/incident")
        XCTAssertEqual(first.first?.fields.first { $0.0 == "PINGUARD_POLICY_SETS" }?.1, "ios-app")
        XCTAssertEqual(again, [])
        XCTAssertEqual(next.count, 1)
    }

    func testTheMetricsGiveTheWindowAndWhenBasisARI() {
        var s = MetricsSnapshot()
        s.results = [result(window: RenewalWindow(start: F.day(40), end: F.day(42)), sets: [caPinned])]
        let text = String(decoding: MetricsRenderer.render(s), as: UTF8.self)

        XCTAssertTrue(text.contains("pinguard_ari_window_start_timestamp_seconds{target=\"api\"} \(Int(F.day(40).timeIntervalSince1970))"))
        XCTAssertTrue(text.contains("pinguard_next_renewal_timestamp_seconds{target=\"api\"} \(Int(F.day(40).timeIntervalSince1970))"))
        XCTAssertTrue(text.contains("when_basis=\"ari\"} 1"))
    }
}
