import XCTest
@testable import PinGuardCore

/// What a policy set's client makes of a chain that fails CT: rejected before pins where the client checks
/// CT, untouched where it does not.
final class CTEvaluationTests: XCTestCase {
    typealias F = ResultFixtures

    /// A trusted, publicly anchored probe whose leaf matches `F.leafPin`, with `scts` judged.
    func facts(_ scts: [ObservedSCT], publiclyAnchored: Bool = true) -> ProbeFacts {
        var f = F.facts()
        f.ct = CTObservation(collected: true, scts: scts, publiclyAnchored: publiclyAnchored)
        return CTSettings(lists: CTFixtures.lists(), publicRoots: publiclyAnchored ? .systemStore : .none, collect: true)
            .judged(f, now: F.now)
    }

    func set(_ client: CTClient, _ ct: CTRequirement? = nil) -> PolicySet {
        var s = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        s.client = client
        s.certificateTransparency = ct
        return s
    }

    func decide(_ facts: ProbeFacts, _ set: PolicySet) -> (Verdict, DecisionReason)? {
        Evaluator.evaluate(facts, policySet: set, environment: "prod", named: true, now: F.now).map { ($0.verdict, $0.reason) }
    }

    func testIOSRejectsAMatchingPinWhenCTFails() throws {
        let e = try XCTUnwrap(Evaluator.evaluate(facts([CTFixtures.sct(1)]), policySet: set(.ios), environment: "prod", named: true, now: F.now))
        XCTAssertEqual(e.verdict, .reject)
        XCTAssertEqual(e.reason, .ctNotCompliant)
        XCTAssertEqual(e.ctClient, .ios)
        XCTAssertFalse(e.matchedPins.isEmpty, "the pins are still reported")
    }

    func testEachClientsDefault() {
        let failing = facts([CTFixtures.sct(1)])
        XCTAssertEqual(decide(failing, set(.ios))?.1, .ctNotCompliant)
        XCTAssertEqual(decide(failing, set(.chrome))?.1, .ctNotCompliant)
        XCTAssertEqual(decide(failing, set(.android))?.1, .pinMatch, "Android 16 checks CT only where the app turns it on")
        XCTAssertEqual(decide(failing, set(.jvm))?.1, .pinMatch)
        XCTAssertEqual(decide(failing, set(.none))?.1, .pinMatch)
    }

    func testCertificateTransparencyOverridesTheClientsDefault() {
        let failing = facts([CTFixtures.sct(1)])
        XCTAssertEqual(decide(failing, set(.android, .required))?.1, .ctNotCompliant)
        XCTAssertEqual(decide(failing, set(.ios, .off))?.1, .pinMatch)
    }

    func testACompliantChainIsJudgedOnItsPins() {
        let compliant = facts([CTFixtures.sct(1), CTFixtures.sct(3)])
        XCTAssertEqual(decide(compliant, set(.ios))?.0, .accept)
        XCTAssertEqual(decide(compliant, set(.ios))?.1, .pinMatch)
    }

    func testAPrivateRootIsExempt() {
        XCTAssertEqual(decide(facts([], publiclyAnchored: false), set(.ios))?.1, .pinMatch)
    }

    func testCTFailsAHostWithoutPolicyToo() {
        var s = set(.ios)
        s.environments["prod"]?.rules = []
        s.environments["prod"]?.defaultPolicy = nil
        XCTAssertEqual(decide(facts([]), s)?.0, .reject)
        XCTAssertEqual(decide(facts([]), s)?.1, .ctNotCompliant)
    }
}
