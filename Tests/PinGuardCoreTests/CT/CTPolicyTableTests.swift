import XCTest
@testable import PinGuardCore

/// Each client's CT policy on SCT sets made in memory: one case per rule, verdicts in the order apple,
/// chrome, android.
final class CTPolicyTableTests: XCTestCase {
    typealias F = CTFixtures

    func testTwoEmbeddedSCTsFromTwoOperatorsSatisfyEveryClientForA90DayCertificate() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3)]), [true, true, true])
    }

    func testThreeEmbeddedSCTsAreNeededAbove180Days() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3)], lifetime: 200), [false, false, false])
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3), F.sct(5)], lifetime: 200), [true, true, true])
        XCTAssertEqual(F.reason(.chrome, [F.sct(1), F.sct(3)], lifetime: 200),
                       "2 of 3 embedded SCTs from distinct qualifying logs for a 200-day certificate")
    }

    func testAppleCountsTheLastSecondOfA180DayCertificateAsDay181() {
        // notBefore through notAfter inclusive is 180 days and a second: Apple needs 3, Chrome and Android 2.
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3)], lifetime: 180), [false, true, true])
        XCTAssertTrue(F.reason(.apple, [F.sct(1), F.sct(3)], lifetime: 180).hasPrefix("2 of 3 embedded SCTs"), F.reason(.apple, [F.sct(1), F.sct(3)], lifetime: 180))
    }

    func testAndroidCountsWholeDaysWhereChromeCountsSeconds() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3)], lifetime: 180.5), [false, false, true])
    }

    /// Apple counts notBefore through notAfter inclusive, so a 90-day certificate is 91 days to it.
    func testTwoSCTsFromOneOperatorFailEveryClient() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(2)]), [false, false, false])
        XCTAssertEqual(F.reason(.chrome, [F.sct(1), F.sct(2)]), "embedded SCTs from 1 log operator(s), 2 needed")
        XCTAssertEqual(F.reason(.apple, [F.sct(1), F.sct(2)]),
                       "1 of 2 embedded SCTs from distinct qualifying logs, at most 1 per operator for a 91-day certificate")
    }

    func testAppleCountsAtMostTwoPerOperatorAbove180Days() {
        // A, A, B: Apple counts 2 + 1 = 3; A, A, A: Apple counts 2, Chrome sees one operator.
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(2), F.sct(3)], lifetime: 300), [true, true, true])
        let oneOperator = [F.sct(1), F.sct(2), F.sct(1, .embedded, .valid, at: -2)]
        XCTAssertEqual(F.verdicts(oneOperator, lifetime: 300), [false, false, false])
    }

    func testAnSCTWithABadSignatureDoesNotCount() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3, .embedded, .invalid)]), [false, false, false])
        XCTAssertTrue(F.reason(.chrome, [F.sct(1), F.sct(3, .embedded, .invalid)]).hasSuffix("(1 with a bad signature)"))
    }

    func testAnSCTFromALogMissingFromTheListDoesNotCount() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(9, .embedded, .unknownLog)]), [false, false, false])
        XCTAssertTrue(F.reason(.apple, [F.sct(1), F.sct(9, .embedded, .unknownLog)]).hasSuffix("(1 from logs not in the apple list)"))
    }

    func testARetiredLogCountsOnlyWhenTheEarliestSCTPredatesItsRetirement() {
        let retiredLater = F.lists(F.logs + [F.log(7, op: "E", state: .retired, since: -5)])
        XCTAssertEqual(F.verdicts([F.sct(1, at: -10), F.sct(7, at: -10)], lists: retiredLater), [true, true, true])
        XCTAssertEqual(F.verdicts([F.sct(1, at: -2), F.sct(7, at: -2)], lists: retiredLater), [false, false, false])
        // A retired log never makes the one SCT from a log approved now.
        let onlyRetired = F.lists([F.log(7, op: "E", state: .retired, since: -5), F.log(8, op: "F", state: .retired, since: -5)])
        XCTAssertEqual(F.verdicts([F.sct(7, at: -10), F.sct(8, at: -10)], lists: onlyRetired), [false, false, false])
    }

    func testTwoSCTsInTheTLSExtensionFromTwoOperatorsSatisfyEveryClient() {
        XCTAssertEqual(F.verdicts([F.sct(1, .tls), F.sct(3, .tls)], lifetime: 300), [true, true, true])
        XCTAssertEqual(F.verdicts([F.sct(1, .tls), F.sct(2, .tls)]), [true, false, false], "Apple states no operator rule for delivered SCTs")
    }

    func testChromeNoLongerReadsSCTsFromStapledOCSP() {
        XCTAssertEqual(F.verdicts([F.sct(1, .ocsp), F.sct(3, .ocsp)]), [true, false, true])
        XCTAssertTrue(F.reason(.chrome, [F.sct(1, .ocsp), F.sct(3, .ocsp)]).contains("2 from stapled OCSP, which the client ignores"))
    }

    func testAppleLetsOneDeliveredSCTCompleteAnEmbeddedOne() {
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3, .tls)], lifetime: 300), [true, false, false])
    }

    func testAppleNeedsOneSCTFromAnRFC6962Log() {
        let tiled = F.lists([F.log(1, op: "A", tiled: true), F.log(3, op: "B", tiled: true)])
        XCTAssertEqual(F.verdicts([F.sct(1), F.sct(3)], lists: tiled), [false, true, true])
    }

    func testAStaleChromeListStopsChromeAndAndroidEnforcingButNotApple() {
        let stale = F.lists(chromeDaysAgo: 71)
        XCTAssertEqual(F.verdicts([], lists: stale), [false, true, true])
        let o = CTPolicy.judged(CTObservation(collected: true, publiclyAnchored: true), leaf: F.leaf(lifetime: 90), lists: stale, now: F.now)
        XCTAssertEqual(o.judgements[.chrome]?.enforced, false)
        XCTAssertEqual(o.judgements[.chrome]?.reason, "not enforced: the chrome log list is 71 days old")
    }

    func testNoSCTsFailEveryClientNamingTheEmbeddedRule() {
        XCTAssertEqual(F.verdicts([]), [false, false, false])
        XCTAssertEqual(F.reason(.android, []), "0 of 2 embedded SCTs from distinct qualifying logs for a 90-day certificate")
    }

    func testAChainNotAnchoredInAPublicRootIsNotJudged() {
        let o = CTPolicy.judged(CTObservation(collected: true, scts: [], publiclyAnchored: false), leaf: F.leaf(lifetime: 90),
                                lists: F.lists(), now: F.now)
        XCTAssertTrue(o.judgements.isEmpty)
    }
}
