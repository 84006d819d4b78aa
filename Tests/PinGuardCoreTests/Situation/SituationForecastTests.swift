import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReports
import PinGuardCoreTestSupport

/// One problem is one situation with the whole story, and a forecast says what is safe instead of calling a
/// healthy target broken.
final class SituationForecastTests: XCTestCase {
    typealias F = ResultFixtures

    /// An app pinning the leaf key with a backup key; the leaf (90 days) expires in `daysLeft`.
    static func leafPinned(daysLeft: Double, key: RenewalOutlook.Key? = nil, staged: ChainCertificate? = nil) -> TargetResult {
        let facts = F.facts(leafDays: daysLeft)
        var chain = facts.evaluatedChain
        chain[0].notBefore = F.day(daysLeft - 90)
        var f = facts
        f.servedChain[0] = chain[0]
        f.verifiedChain[0] = chain[0]
        let sets = [F.set("ios-app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])]
        var r = F.result(F.target("api"), f, sets)
        r.forecast(with: RenewalOutlookBuilder.outlook(chain: f.evaluatedChain, settings: RenewalSettings(key: key),
                                                       staged: staged.map { [$0, F.intermediate] }, stagedFile: "/etc/ssl/next/api.pem",
                                                       observed: nil, pools: [:], catalog: .empty),
                   sets: sets)
        return r
    }

    static func stagedOnUnpinnedKey(daysLeft: Double) -> ChainCertificate {
        var next = F.cert(0, spki: 7, cert: 17, notAfter: daysLeft + 85)
        next.notBefore = F.day(-1)
        return next
    }

    func testAnExpiringCertificateWhoseStagedRenewalIsOnAnUnpinnedKeyIsOneCriticalSituation() throws {
        let r = Self.leafPinned(daysLeft: 5, staged: Self.stagedOnUnpinnedKey(daysLeft: 5))
        let all = SituationAssessor.assess(r, now: F.now)
        XCTAssertEqual(all.count, 1, "\(all.map(\.kind))")
        let s = try XCTUnwrap(all.first)
        XCTAssertEqual("\(s.kind)/\(s.severity)", "breaksAtRenewal/critical")
        XCTAssertEqual(s.file, "/etc/ssl/next/api.pem")
        XCTAssertTrue(s.summary.contains("/etc/ssl/next/api.pem is on key sha256/\(F.h(7))"), s.summary)
        XCTAssertTrue(s.action.hasPrefix("Do not deploy /etc/ssl/next/api.pem"), s.action)
        XCTAssertTrue(s.action.contains("with the current key (certbot --reuse-key)"), s.action)
        XCTAssertTrue(s.action.contains("with the pinned backup key sha256/\(F.h(9))"), s.action)
        XCTAssertFalse(s.action.lowercased().contains("renew now"), "no advice that pulls the other way")
    }

    func testAHealthyLeafPinnedTargetWithoutAKeyPlanIsAtRiskWithTheSafeWaysNamed() throws {
        let r = Self.leafPinned(daysLeft: 45)  // renewal due in 15 days
        let s = try XCTUnwrap(SituationAssessor.assess(r, now: F.now).first)
        XCTAssertEqual("\(s.kind)/\(s.severity)", "renewalAtRisk/warning")
        XCTAssertTrue(s.action.contains("keep the key (renewal.key: reuse in pinguard.yml; certbot --reuse-key; cert-manager rotationPolicy: Never)"))
        XCTAssertTrue(s.action.contains("move to the pinned backup key sha256/\(F.h(9))"), s.action)
        XCTAssertTrue(s.action.contains("stage the next chain in files:"))
        let forecast = try XCTUnwrap(r.forecasts.first)
        XCTAssertEqual(forecast.rejectRatio, 1, "the number keeps its meaning: a fresh key is rejected")
        XCTAssertEqual(forecast.safeKeys, SafeKeys(keepCurrent: true, pinnedBackups: [F.h(9)]))
        let text = RenewalForecastReport.text(r.outlook, r.forecasts)
        XCTAssertTrue(text.contains("at risk with a fresh key; safe: keep the key"), text)
        XCTAssertFalse(text.contains("unknown, unknown"), text)
    }

    func testTheRiskGrowsAsTheRenewalApproachesAndEndsWithADeclaredPlan() throws {
        let far = SituationAssessor.assess(Self.leafPinned(daysLeft: 80), now: F.now)  // renewal in 50 days
        XCTAssertEqual(far.map(\.severity), [.upcoming])
        XCTAssertFalse(far[0].isReported)
        XCTAssertEqual(SituationAssessor.assess(Self.leafPinned(daysLeft: 35), now: F.now).first?.severity, .critical)
        XCTAssertEqual(SituationAssessor.assess(Self.leafPinned(daysLeft: 45, key: .reuse), now: F.now), [],
                       "renewal.key: reuse makes the renewal safe")
        let rotate = try XCTUnwrap(SituationAssessor.assess(Self.leafPinned(daysLeft: 45, key: .rotate), now: F.now).first)
        XCTAssertEqual(rotate.kind, .breaksAtRenewal, "a declared fresh key is certain breakage, not a risk")
    }

    func testAStagedChainTheAppRejectsFarFromItsRenewalIsAStagedWarningNamingTheFile() throws {
        let s = try XCTUnwrap(SituationAssessor.assess(Self.leafPinned(daysLeft: 80, staged: Self.stagedOnUnpinnedKey(daysLeft: 80)),
                                                       now: F.now).first)
        XCTAssertEqual("\(s.kind)/\(s.severity)", "stagedRejected/warning")
        XCTAssertTrue(s.summary.contains("The staged chain /etc/ssl/next/api.pem for api would be rejected by ios-app (prod)"), s.summary)
        XCTAssertFalse(s.summary.contains("443"), "a staged file has no port")
    }

    func testAForecastThatRejectsNothingNeverSaysTheNextKeyIsNotPinned() {
        let sets = [F.set("android-app", [("api.example.com", HostPolicy(pins: [F.caPin]))])]
        var r = F.result(F.target("api"), F.facts(), sets)
        r.forecast(with: RenewalOutlookBuilder.outlook(chain: F.facts().evaluatedChain, settings: RenewalSettings(), staged: nil,
                                                       observed: nil, pools: [:], catalog: .empty), sets: sets)
        let text = RenewalForecastReport.text(r.outlook, r.forecasts)
        XCTAssertTrue(text.contains("android-app/prod: rejects 0% of plausible renewals (the key not known, so judged as fresh): safe"), text)
        XCTAssertFalse(text.contains("not pinned"), text)
    }

    func testARejectingAppOutranksTheCertificatesOwnProblems() throws {
        let sets = [F.set("app", [("api.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(8), role: .primary)]))])]
        let r = F.result(F.target("api"), F.facts(leafDays: 1), sets)
        let s = SituationAssessor.assess(r, now: F.now)
        XCTAssertEqual(s.map(\.kind), [.rejected])
        XCTAssertTrue(s[0].action.contains("Serve a chain app pins again (sha256/\(F.h(8)))"), s[0].action)
    }
}
