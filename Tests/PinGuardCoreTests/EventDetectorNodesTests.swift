import Foundation
import XCTest
@testable import PinGuardCore

/// Journal events of a target served by several addresses: each address on its own, plus the target's
/// resolution, address set and chain divergence (docs/reference.md, Journal events).
final class EventDetectorNodesTests: XCTestCase {
    typealias F = ResultFixtures

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
    let target = F.target("api")

    private func events(_ entries: [JournalEntry]) -> [String] { entries.map(\.event.rawValue) }

    func testEveryAddressIsReportedOnItsOwnWithItsAddress() throws {
        var d = EventDetector(warningDays: 30)
        let out = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()),
                                                     F.at("10.0.0.2:443", F.facts(leafKey: 7, leafCert: 17))], [app]))
        XCTAssertEqual(events(out), ["chain_divergence", "pin_matched", "pin_mismatch"])
        let mismatch = try XCTUnwrap(out.first { $0.event == .pinMismatch })
        XCTAssertTrue(mismatch.fields.contains { $0 == ("PINGUARD_ADDRESS", "10.0.0.2:443") }, "\(mismatch.fields)")
        XCTAssertTrue(mismatch.message.hasPrefix("api (10.0.0.2:443): app/prod REJECTS"), mismatch.message)
        // Nothing changed: nothing new.
        XCTAssertEqual(events(d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()),
                                                                 F.at("10.0.0.2:443", F.facts(leafKey: 7, leafCert: 17))], [app]))), [])
    }

    func testDivergenceNamesTheMostCommonChainAndTheOneThatDiffers() throws {
        var d = EventDetector(warningDays: 30)
        let out = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts(leafKey: 7, leafCert: 17, leafDays: 20)),
                                                     F.at("10.0.0.2:443", F.facts()),
                                                     F.at("10.0.0.3:443", F.facts())], [app]))
        let e = try XCTUnwrap(out.first { $0.event == .chainDivergence })
        let fields = Dictionary(e.fields, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["PINGUARD_ADDRESS"], "10.0.0.2:443", "the chain two nodes serve")
        XCTAssertEqual(fields["PINGUARD_LEAF_SPKI_SHA256"], F.h(1))
        XCTAssertEqual(fields["PINGUARD_NOT_AFTER"], RFC3339.format(F.day(90)))
        XCTAssertEqual(fields["PINGUARD_OTHER_ADDRESS"], "10.0.0.1:443")
        XCTAssertEqual(fields["PINGUARD_OTHER_LEAF_SPKI_SHA256"], F.h(7))
        XCTAssertEqual(fields["PINGUARD_OTHER_NOT_AFTER"], RFC3339.format(F.day(20)))
        XCTAssertEqual(fields["PINGUARD_DISTINCT_CHAINS"], "2")
        XCTAssertTrue(e.message.contains("10.0.0.2:443, 10.0.0.3:443 serve leaf SPKI \(F.h(1))"), e.message)
        // The stale node catches up: no divergence, and a chain_changed for that node only.
        let caughtUp = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()), F.at("10.0.0.2:443", F.facts()),
                                                          F.at("10.0.0.3:443", F.facts())], [app]))
        XCTAssertEqual(events(caughtUp).filter { $0 != "pin_matched" }, ["chain_changed"])
        XCTAssertEqual(caughtUp.first { $0.event == .chainChanged }?.fields.first { $0.0 == "PINGUARD_ADDRESS" }?.1, "10.0.0.1:443")
    }

    func testAddressSetChangesAndResolutionFailuresAreEvents() throws {
        var d = EventDetector(warningDays: 30)
        _ = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts())], [app]))
        let grown = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()), F.at("10.0.0.2:443", F.facts())], [app]))
        let changed = try XCTUnwrap(grown.first { $0.event == .addressSetChanged })
        XCTAssertTrue(changed.message.contains("added 10.0.0.2:443"), changed.message)
        XCTAssertTrue(changed.fields.contains { $0 == ("PINGUARD_ADDRESSES", "10.0.0.1:443,10.0.0.2:443") })
        XCTAssertTrue(changed.fields.contains { $0 == ("PINGUARD_PREVIOUS_ADDRESSES", "10.0.0.1:443") })
        XCTAssertEqual(events(grown), ["address_set_changed", "pin_matched"], "the new node is announced as at start")

        let gone = TargetProbe(resolution: AddressResolution(error: "resolve api.example.com: Name or service not known"),
                               nodes: [], host: "api.example.com", port: 443, at: F.now)
        let failed = d.observe(TargetResult.evaluate(gone, target: target, sets: [app], now: F.now))
        XCTAssertEqual(events(failed), ["resolution_failed"])
        XCTAssertEqual(events(d.observe(TargetResult.evaluate(gone, target: target, sets: [app], now: F.now))), [], "once")
        let back = d.observe(F.result(target, nodes: [F.at("10.0.0.1:443", F.facts()), F.at("10.0.0.2:443", F.facts())], [app]))
        XCTAssertEqual(events(back), ["address_set_changed"], "resolving again is a change; the nodes' state was kept")
        XCTAssertTrue(back[0].message.contains("resolves again"), back[0].message)
    }

    func testMoreAddressesThanMaxAddressesIsReportedOnce() {
        var d = EventDetector(warningDays: 30)
        var t = target
        t.maxAddresses = 1
        let r = F.result(t, nodes: [F.at("10.0.0.1:443", F.facts())], skipped: 2, [app])
        XCTAssertEqual(events(d.observe(r)).first, "addresses_over_limit")
        XCTAssertFalse(events(d.observe(r)).contains("addresses_over_limit"))
    }

    func testAPinOfARawPublicKeyIsReportedOnceWithTheSPKIPinItShouldBe() throws {
        var facts = F.facts()
        facts.servedChain[0].rawKeySHA256 = F.h(77)
        facts.verifiedChain[0].rawKeySHA256 = F.h(77)
        let rawPin = Pin(type: .spki, hash: F.h(77), role: .primary, scope: .leaf)
        let set = F.set("app", [("api.example.com", HostPolicy(pins: [rawPin, F.leafPin]))])
        var d = EventDetector(warningDays: 30)
        let out = d.observe(F.result(target, facts, [set]))
        let e = try XCTUnwrap(out.first { $0.event == .rawKeyPin })
        let fields = Dictionary(e.fields, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["PINGUARD_PIN"], F.h(77))
        XCTAssertEqual(fields["PINGUARD_SPKI_SHA256"], F.h(1))
        XCTAssertEqual(fields["PINGUARD_DEPTH"], "0")
        XCTAssertTrue(e.message.contains("its SPKI pin is \(F.h(1))"), e.message)
        XCTAssertFalse(events(d.observe(F.result(target, facts, [set]))).contains("raw_key_pin"), "once")
    }
}
