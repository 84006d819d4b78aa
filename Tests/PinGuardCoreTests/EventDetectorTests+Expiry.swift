import Foundation
import XCTest
@testable import PinGuardCore

/// Expiry warnings and pin breakage: the warning window in days, and a quarter of the certificate's own lifetime
/// for one that lives shorter than four windows (docs/reference.md, Journal events).
extension EventDetectorTests {
    func testExpiryWarningAndPinBreakageUseTheWarningDays() throws {
        var d = EventDetector(warningDays: 30)
        let soon = d.observe(F.result(target, Self.longLived(F.facts(leafDays: 29.5)), [app]))
        XCTAssertEqual(events(soon), ["expiry_warning", "pin_matched", "pin_breakage_imminent"])
        let expiry = try XCTUnwrap(soon.first)
        XCTAssertEqual(expiry.field("PINGUARD_DAYS_TO_EXPIRY"), "29.5")
        XCTAssertEqual(expiry.field("PINGUARD_LEAF_SPKI_SHA256"), F.h(1))
        XCTAssertTrue(expiry.message.contains(RFC3339.format(F.day(29.5))), expiry.message)
        let breakage = try XCTUnwrap(soon.last)
        XCTAssertEqual(breakage.field("PINGUARD_DAYS_TO_PIN_BREAKAGE"), "29.5")
        XCTAssertEqual(breakage.field("PINGUARD_RESERVE_PINS"), "1")
        XCTAssertEqual(events(d.observe(F.result(target, Self.longLived(F.facts(leafDays: 29.4)), [app]))), [], "still soon: no repeat")
        // Renewed: the warnings clear silently, and come back at the next approach.
        XCTAssertEqual(events(d.observe(F.result(target, Self.longLived(F.facts(leafCert: 21, leafDays: 90)), [app]))), ["chain_changed"])
        XCTAssertEqual(events(d.observe(F.result(target, Self.longLived(F.facts(leafCert: 21, leafDays: 20)), [app]))),
                       ["expiry_warning", "pin_breakage_imminent"])

        var later = EventDetector(warningDays: 30)
        XCTAssertEqual(events(later.observe(F.result(target, Self.longLived(F.facts(leafDays: 30.5)), [app]))), ["pin_matched"], "beyond the threshold")

        // A CA pin's horizon is the intermediate's: the leaf expires soon, the pins do not break.
        let ca = F.set("app", [("api.example.com", HostPolicy(pins: [F.caPin, F.reservePin]))])
        var caDetector = EventDetector(warningDays: 30)
        XCTAssertEqual(events(caDetector.observe(F.result(target, Self.longLived(F.facts(leafDays: 10)), [ca]))), ["expiry_warning", "pin_matched"])

        // The threshold is the configured one, and follows a reload.
        var narrow = EventDetector(warningDays: 7)
        XCTAssertEqual(events(narrow.observe(F.result(target, Self.longLived(F.facts(leafDays: 10)), [app]))), ["pin_matched"])
        narrow.warningDays = 14
        XCTAssertEqual(events(narrow.observe(F.result(target, Self.longLived(F.facts(leafDays: 10)), [app]))), ["expiry_warning", "pin_breakage_imminent"])
    }

    /// `f` with a 398-day leaf: a quarter of its lifetime is longer than any warning window here.
    static func longLived(_ f: ProbeFacts) -> ProbeFacts {
        var f = f
        f.servedChain[0].notBefore = f.servedChain[0].notAfter.addingTimeInterval(-398 * 86_400)
        if !f.verifiedChain.isEmpty { f.verifiedChain[0] = f.servedChain[0] }
        return f
    }

    func testAShortLivedCertificateWarnsOnlyInTheLastQuarterOfItsLifetime() {
        func sixDay(daysLeft: Double) -> ProbeFacts {
            var f = F.facts(leafDays: daysLeft)
            f.servedChain[0].notBefore = F.day(daysLeft - 6)
            f.verifiedChain[0] = f.servedChain[0]
            return f
        }
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(events(d.observe(F.result(target, sixDay(daysLeft: 5), [app]))), ["pin_matched"], "a healthy 6-day certificate is quiet")
        XCTAssertEqual(events(d.observe(F.result(target, sixDay(daysLeft: 2), [app]))), [], "due for renewal, not yet late")
        XCTAssertEqual(events(d.observe(F.result(target, sixDay(daysLeft: 1.4), [app]))), ["expiry_warning", "pin_breakage_imminent"],
                       "less than a quarter of its lifetime left")
    }
}
