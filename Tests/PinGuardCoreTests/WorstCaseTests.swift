import Foundation
import XCTest
@testable import PinGuardCore

/// The per-target view of a name served by several addresses (docs/reference.md, Every address of a name).
final class WorstCaseTests: XCTestCase {
    typealias F = ResultFixtures

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])

    func testARejectOnAnyAddressIsTheTargetsReject() {
        let r = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts()),
                                                  F.at("10.0.0.2:443", F.facts(leafKey: 7, leafCert: 17)),
                                                  F.at("10.0.0.3:443", F.facts())], [app])
        XCTAssertEqual(r.nodes.map { $0.evaluations.first?.verdict }, [.accept, .reject, .accept])
        XCTAssertEqual(r.evaluations.first?.verdict, .reject)
        XCTAssertEqual(r.evaluations.first?.reason, .pinMismatch)
        XCTAssertEqual(r.facts.address, "10.0.0.2:443", "the worst node stands for the target")
        XCTAssertEqual(WorstCase.distinctChains(r.nodes), 2)
        XCTAssertFalse(r.allAccept)
    }

    func testEarliestExpiryNearestHorizonAndFewestReservesComeFromAnyAddress() {
        // Node 2 serves a leaf expiring sooner, with the same pinned key: both accept.
        let r = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts(leafDays: 90)),
                                                  F.at("10.0.0.2:443", F.facts(leafCert: 21, leafDays: 10))], [app])
        let e = try! XCTUnwrap(r.evaluations.first)
        XCTAssertEqual(e.verdict, .accept)
        XCTAssertEqual(e.pinHorizon, F.day(10), "the nearest pin horizon")
        XCTAssertEqual(e.earliestExpiry, F.day(10))
        XCTAssertEqual(e.daysToExpiry ?? 0, 10, accuracy: 1e-9)

        // Node 2 serves the backup key: it matches the reserve pin, leaving no reserve there.
        let rotated = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts()),
                                                        F.at("10.0.0.2:443", F.facts(leafKey: 9, leafCert: 19))], [app])
        XCTAssertEqual(rotated.nodes.map { $0.evaluations.first?.reservePins.count }, [1, 1])
        let both = F.set("both", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin, F.caPin]))])
        let r2 = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts()),
                                                   F.at("10.0.0.2:443", F.facts(leafKey: 9, leafCert: 19))], [both])
        XCTAssertEqual(r2.nodes.map { $0.evaluations.first?.reservePins.count }, [1, 1])
        XCTAssertEqual(r2.evaluations.first?.reservePins.count, 1)
    }

    func testANodeThatIsDownDoesNotMakeTheTargetReject() {
        let r = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts()),
                                                  F.at("10.0.0.2:443", F.facts(error: "connect to 10.0.0.2:443: Connection refused"))], [app])
        XCTAssertEqual(r.evaluations.first?.verdict, .accept, "a client that cannot connect tries the next address")
        XCTAssertFalse(r.allNodesReached)
        XCTAssertFalse(r.allAccept)
        XCTAssertEqual(r.facts.address, "10.0.0.2:443", "the failed node is shown before an accepting one")
        XCTAssertEqual(WorstCase.distinctChains(r.nodes), 1)
    }

    func testNoNodeServingAChainLeavesNoVerdict() {
        let r = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts(error: "timeout")),
                                                  F.at("10.0.0.2:443", F.facts(error: "timeout"))], [app])
        XCTAssertEqual(r.evaluations.first?.verdict, Verdict.none)
        XCTAssertEqual(r.evaluations.first?.reason, .probeFailed)
    }

    func testANameThatDoesNotResolveIsOneFailedProbeWithoutAddress() {
        let probe = TargetProbe(resolution: AddressResolution(error: "resolve api.example.com: Name or service not known"),
                                nodes: [], host: "api.example.com", port: 443, at: F.now)
        XCTAssertEqual(probe.nodes.count, 1)
        XCTAssertNil(probe.nodes[0].address)
        XCTAssertEqual(probe.nodes[0].error, "resolve api.example.com: Name or service not known")
        let r = TargetResult.evaluate(probe, target: F.target("api"), sets: [app], now: F.now)
        XCTAssertEqual(r.nodes[0].address, "")
        XCTAssertEqual(r.evaluations.first?.reason, .probeFailed)
    }

    func testReJudgingKeepsEveryNode() {
        let r = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", F.facts()),
                                                  F.at("10.0.0.2:443", F.facts(leafKey: 7, leafCert: 17))], skipped: 3, [app])
        let permissive = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin], failStrategy: .permissive))])
        let again = TargetResult.evaluate(r.probe, target: r.target, sets: [permissive], now: F.now)
        XCTAssertEqual(again.nodes.map(\.address), ["10.0.0.1:443", "10.0.0.2:443"])
        XCTAssertEqual(again.resolution.skipped, 3)
        XCTAssertEqual(again.evaluations.first?.verdict, .accept)
        XCTAssertEqual(again.evaluations.first?.reason, .pinMismatchPermissive, "the worst reason among accepting nodes is kept")
    }
}
