import Foundation
import XCTest
@testable import PinGuardCore
import PinGuardCoreTestSupport

/// The words of a forecast name the true cause: the CA's next issuers no pin covers, by name, when the app pins
/// CAs; the key only when the app pins today's leaf key; and never a CA's key as a key to move to.
final class SituationTrueCauseTests: XCTestCase {
    typealias F = ResultFixtures
    let newGeneration = F.cert(1, spki: 6, cert: 16, notAfter: 900, subject: "CN=NewGen")
    let spare = F.cert(1, spki: 5, cert: 15, notAfter: 900, subject: "CN=Spare")

    /// An app pinning today's intermediate and, as a backup, the key `backup`; the CA issues next from `pool`,
    /// with the key kept (declared); the 90-day leaf has 40 days left (renewal in 10).
    func result(pool: [IssuerOption], backup: Pin) -> TargetResult {
        var f = F.facts(leafDays: 40)
        f.servedChain[0].notBefore = F.day(-50)
        f.verifiedChain[0].notBefore = F.day(-50)
        let sets = [F.set("android-app", [("api.example.com", HostPolicy(pins: [F.caPin, backup]))])]
        var r = F.result(F.target("api"), f, sets)
        r.forecast(with: RenewalOutlookBuilder.outlook(chain: f.evaluatedChain, settings: RenewalSettings(key: .reuse, issuers: "ca"),
                                                       staged: nil, observed: nil, pools: ["ca": pool], catalog: .empty),
                   sets: sets)
        return r
    }

    func testANewIssuerGenerationIsNamedAndTheKeptKeyIsNotBlamed() throws {
        let r = result(pool: [IssuerOption(name: "NewGen", chain: [newGeneration, F.root])], backup: F.reservePin)
        let s = try XCTUnwrap(SituationAssessor.assess(r, now: F.now).first { $0.policySet == "android-app" })
        XCTAssertEqual(s.kind, .breaksAtRenewal)
        XCTAssertTrue(s.summary.contains("no pin covers the CA's next issuer NewGen"), s.summary)
        XCTAssertFalse(s.summary.contains("key"), "the kept key is not why: \(s.summary)")
    }

    func testAPinnedCAKeyIsNeverOfferedAsAKeyToMoveTo() throws {
        let caKeyAsBackup = Pin(type: .spki, hash: F.h(5), role: .backup)
        let r = result(pool: [IssuerOption(name: "NewGen", chain: [newGeneration, F.root]), IssuerOption(name: "Spare", chain: [spare, F.root])],
                       backup: caKeyAsBackup)
        let forecast = try XCTUnwrap(r.forecasts.first)
        XCTAssertEqual(forecast.rejectRatio, 0.5, "Spare's key is pinned, NewGen's is not")
        XCTAssertEqual(forecast.safeKeys.pinnedBackups, [], "sha256/\(F.h(5)) is Spare's key, which no operator can serve")
        let s = try XCTUnwrap(SituationAssessor.assess(r, now: F.now).first { $0.policySet == "android-app" })
        XCTAssertFalse(s.action.contains("sha256/\(F.h(5))"), s.action)
        XCTAssertTrue(s.summary.contains("no pin covers the CA's next issuer NewGen"), s.summary)
        XCTAssertFalse(s.summary.contains("Spare"), s.summary)
    }
}
