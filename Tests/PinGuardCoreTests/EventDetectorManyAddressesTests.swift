import Foundation
import XCTest
@testable import PinGuardCore

/// The detector remembers each address and each policy set of a target on its own, however many there
/// are and in whatever order they come: a reordering or a change of one reports only that change.
final class EventDetectorManyAddressesTests: XCTestCase {
    typealias F = ResultFixtures

    let sets = ["app", "web", "kiosk"].map { F.set($0, [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))]) }
    let target = F.target("api")

    func addresses(_ n: Int) -> [String] { (0..<n).map { "10.0.\($0 / 256).\($0 % 256):443" } }

    func result(_ addresses: [String], badAddress: String? = nil, sets: [PolicySet]? = nil) -> TargetResult {
        F.result(target, nodes: addresses.map { a in
            a == badAddress ? F.at(a, F.facts(leafKey: 7, leafCert: 17)) : F.at(a, F.facts())
        }, sets ?? self.sets)
    }

    private func events(_ entries: [JournalEntry]) -> [String] { entries.map(\.event.rawValue) }

    func testTwoHundredFiftySixAddressesByThreeSetsReportOnlyWhatChanged() throws {
        var d = EventDetector(warningDays: 30)
        let all = addresses(256)
        XCTAssertEqual(d.observe(result(all)).filter { $0.event == .pinMatched }.count, 256 * 3)
        XCTAssertEqual(events(d.observe(result(all))), [], "nothing changed")
        XCTAssertEqual(events(d.observe(result(all.reversed()))), ["address_set_changed"], "the same addresses in another order")
        // One address serves another chain: only its own events.
        let bad = d.observe(result(all.reversed(), badAddress: all[100]))
        XCTAssertEqual(Set(events(bad)), ["chain_divergence", "chain_changed", "pin_mismatch"])
        XCTAssertEqual(bad.filter { $0.event == .pinMismatch }.count, 3)
        XCTAssertTrue(bad.filter { $0.event != .chainDivergence }.allSatisfy { e in
            e.fields.contains { $0 == ("PINGUARD_ADDRESS", all[100]) }
        })
        // An address goes away and comes back: it is reported afresh, the others are not.
        XCTAssertEqual(events(d.observe(result(Array(all.dropFirst()), badAddress: all[100]))), ["address_set_changed"])
        let back = d.observe(result(all, badAddress: all[100]))
        XCTAssertEqual(Set(events(back)), ["address_set_changed", "pin_matched"])
        XCTAssertEqual(back.filter { $0.event == .pinMatched }.count, 3)
        XCTAssertTrue(back.filter { $0.event == .pinMatched }.allSatisfy { e in
            e.fields.contains { $0 == ("PINGUARD_ADDRESS", all[0]) }
        })
    }

    func testASetThatGoesAwayIsReportedAfreshWhenItComesBack() {
        var d = EventDetector(warningDays: 30)
        let two = addresses(2)
        _ = d.observe(result(two))
        XCTAssertEqual(events(d.observe(result(two, sets: [sets[0], sets[2]]))), [])
        let back = d.observe(result(two))
        XCTAssertEqual(events(back), ["pin_matched", "pin_matched"])
        XCTAssertTrue(back.allSatisfy { $0.message.contains("web/prod") }, "\(back.map(\.message))")
    }
}
