import Foundation
import PinGuardCoreTestSupport
import PinGuardTestSupport
import XCTest
@testable import PinGuardCore

/// A revoked certificate of the served chain that an app pins is that app's critical situation, naming the app,
/// the certificate and the app's other pins; an app that does not pin it keeps its own situation.
final class SituationRevokedTests: XCTestCase {
    typealias F = ResultFixtures
    let pinsIntermediate = F.set("ios-app", [("api.example.com", HostPolicy(pins: [F.caPin, F.reservePin]))])
    let pinsLeaf = F.set("web", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])

    func facts(revokedDepth: Int) -> ProbeFacts {
        var f = F.facts()
        f.revocation = [CertificateRevocation(depth: revokedDepth, url: "http://ca.test/x.crl",
                                              state: .revoked(at: F.day(-2), reason: .cACompromise))]
        return f
    }

    func testARevokedPinnedIntermediateIsTheCriticalSituationOfTheAppThatPinsItOnly() throws {
        let result = F.result(F.target("api"), facts(revokedDepth: 1), [pinsIntermediate, pinsLeaf])
        let situations = SituationAssessor.assess(result, now: F.now)
        let ios = try XCTUnwrap(situations.first { $0.policySet == "ios-app" })
        XCTAssertEqual(ios.kind, .revoked)
        XCTAssertEqual(ios.severity, .critical)
        XCTAssertEqual(ios.apps, ["ios-app/prod"])
        XCTAssertTrue(ios.summary.contains("ios-app (prod) pins the intermediate at depth 1 of api (CN=Intermediate, serial 0C"), ios.summary)
        XCTAssertTrue(ios.summary.contains("revoked on \(String(RFC3339.format(F.day(-2)).prefix(10))) (cACompromise)"), ios.summary)
        XCTAssertTrue(ios.action.contains(F.reservePin.prefixedHash), "names the other pin to move to: \(ios.action)")
        XCTAssertFalse(ios.action.contains(F.caPin.prefixedHash), "never the revoked key as somewhere to move: \(ios.action)")
        XCTAssertFalse(situations.contains { $0.policySet == "web" && $0.kind == .revoked }, "web pins the leaf, not the intermediate")
    }

    func testAnAppWhoseOnlyPinIsRevokedIsToldToShipNewPinsFirst() throws {
        let only = F.set("ios-app", [("api.example.com", HostPolicy(pins: [F.caPin]))])
        let result = F.result(F.target("api"), facts(revokedDepth: 1), [only])
        let s = try XCTUnwrap(SituationAssessor.assess(result, now: F.now).first)
        XCTAssertEqual(s.kind, .revoked)
        XCTAssertTrue(s.action.contains("pins no other key: ship a release that pins the replacement chain's keys first"), s.action)
    }

    func testARevokedCertificateNoAppPinsMakesNoSituation() {
        let result = F.result(F.target("api"), facts(revokedDepth: 0), [pinsIntermediate])
        XCTAssertFalse(SituationAssessor.assess(result, now: F.now).contains { $0.kind == .revoked })
    }

    func testTheSituationSeriesCarryIdentifiersOnlyAndTheWordsApart() throws {
        var snapshot = MetricsSnapshot()
        snapshot.results = [F.result(F.target("api"), facts(revokedDepth: 1), [pinsIntermediate])]
        let e = try Exposition(String(decoding: MetricsRenderer.render(snapshot), as: UTF8.self))
        let info = try XCTUnwrap(e.samples("pinguard_situation_info", ["situation": "revoked"]).first)
        XCTAssertEqual(Set(info.labels.keys), ["target", "policy_set", "environment", "situation", "severity", "apps"])
        let words = try XCTUnwrap(e.samples("pinguard_situation_words_info", ["situation": "revoked"]).first)
        XCTAssertTrue(words.labels["summary"]?.contains("CN=Intermediate") == true)
        XCTAssertEqual(words.labels["policy_set"], "ios-app")
        XCTAssertNil(e.value("pinguard_situation_due_timestamp_seconds", ["situation": "revoked"]), "due now: no date")
    }
}
