import Foundation
import XCTest
@testable import PinGuardCore

/// A policy edit forecasts again only what read the edit: the outlook is not rebuilt, and a set whose
/// policies did not change keeps the forecast it has. Counted, not timed.
final class ReforecastTests: XCTestCase {
    typealias F = ResultFixtures

    /// An outlook source that counts how often an outlook is built.
    final class CountingOutlooks: RenewalOutlookSource, @unchecked Sendable {
        private let lock = NSLock()
        private var built = 0
        let declared = DeclaredRenewalOutlook(settings: RenewalSettings(), catalog: .empty)

        var count: Int { lock.withLock { built } }

        func outlook(for result: TargetResult) -> RenewalOutlook? {
            lock.withLock { built += 1 }
            return declared.outlook(for: result)
        }
    }

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.caPin]))])
    let web = F.set("web", [("**.example.com", HostPolicy(pins: [F.caPin]))])
    let edited = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
    let later = F.now.addingTimeInterval(86_400)

    /// A result judged by `app` and `web`, whose `web` forecast carries a ratio no forecaster gives, so a
    /// forecast made again shows.
    private func marked(_ outlooks: CountingOutlooks, target: Target) -> TargetResult {
        var result = Judge(sets: [app, web], renewals: outlooks).judge(F.facts(), target: target, now: F.now)
        XCTAssertEqual(result.forecasts.map(\.policySet), ["app", "web"])
        result.forecasts[1].rejectRatio = 0.123
        return result
    }

    func testAPolicyEditForecastsOnlyTheEditedSetUnderTheOutlookItHas() {
        let outlooks = CountingOutlooks()
        let target = F.target("api")
        var result = marked(outlooks, target: target)
        let before = outlooks.count
        let judge = Judge(sets: [edited, web], renewals: outlooks)
        judge.rejudge(&result, for: target, Rejudging(unchanged: ["web"], policiesChanged: true, outlookChanged: false, ctChanged: false),
                      now: later)
        XCTAssertEqual(outlooks.count, before, "no outlook is built again for a policy edit")
        XCTAssertEqual(result.forecasts.map(\.policySet), ["app", "web"])
        XCTAssertEqual(result.forecasts[1].rejectRatio, 0.123, "the unchanged set's forecast is kept, not made again")
        let fresh = judge.judge(F.facts(), target: target, now: later)
        XCTAssertEqual(result.forecasts[0], fresh.forecasts[0], "the edited set's forecast is the one a fresh judgement gives")
        XCTAssertEqual(result.forecasts[0].rejectRatio, 1, "the edit dropped the CA pin: a new leaf key breaks app")
    }

    func testWhatTheOutlookReadsChangingForecastsEverySetFromANewOutlook() {
        let outlooks = CountingOutlooks()
        let target = F.target("api")
        var result = marked(outlooks, target: target)
        let before = outlooks.count
        var renewed = target
        renewed.renewal = RenewalSettings(key: .reuse)
        Judge(sets: [app, web], renewals: outlooks).rejudge(
            &result, for: renewed, Rejudging(unchanged: ["app", "web"], policiesChanged: false, outlookChanged: false, ctChanged: false),
            now: later)
        XCTAssertEqual(outlooks.count, before + 1, "the target's own renewal changed: one outlook built")
        XCTAssertEqual(result.forecasts[1].rejectRatio, 0, "every set forecast again")
    }

    func testATargetWhoseNamedSetsChangedForecastsEverySet() {
        let outlooks = CountingOutlooks()
        var result = marked(outlooks, target: F.target("api"))
        let named = F.target("api", sets: ["app", "web"])
        Judge(sets: [edited, web], renewals: outlooks).rejudge(
            &result, for: named, Rejudging(unchanged: ["web"], policiesChanged: true, outlookChanged: false, ctChanged: false), now: later)
        XCTAssertEqual(result.forecasts.map(\.rejectRatio), [1, 0], "its named sets changed: nothing is kept")
    }
}
