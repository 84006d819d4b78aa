import Foundation
import XCTest
@testable import PinGuardCore

/// The event detector can forget one target, so that a new endpoint under an old name is reported as at start.
final class EventDetectorForgetTests: XCTestCase {
    typealias F = ResultFixtures

    private func events(_ entries: [JournalEntry]) -> [String] { entries.map(\.event.rawValue) }

    /// After `forget`, the next observation of that target is reported in full (its decision, its expiry) and
    /// not compared with the old endpoint's chain; other targets keep their memory.
    func testForgetReportsTheNextObservationAsAtStart() {
        let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
        let api = F.target("api")
        let web = F.target("web")
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(events(d.observe(F.result(api, F.facts(), [app]))), ["pin_matched"])
        XCTAssertEqual(events(d.observe(F.result(web, F.facts(), [app]))), ["pin_matched"])

        d.forget(target: "api")
        // Another server under the same name: same key, another certificate, expiring soon.
        let moved = F.target("api", port: 8443)
        let after = d.observe(F.result(moved, F.facts(port: 8443, leafCert: 21, leafDays: 5), [app]))
        XCTAssertFalse(events(after).contains("chain_changed"), "\(events(after))")
        XCTAssertEqual(events(after), ["expiry_warning", "pin_matched", "pin_breakage_imminent"], "reported as a first observation")

        // Without forget, the same change is a chain change and the unchanged decision is not repeated.
        let renewed = d.observe(F.result(web, F.facts(leafCert: 21, leafDays: 5), [app]))
        XCTAssertEqual(events(renewed), ["chain_changed", "expiry_warning", "pin_breakage_imminent"], "web was not forgotten")
    }
}
