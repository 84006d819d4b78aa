import Foundation
import PinGuardCore
import PinGuardCoreTestSupport
import PinGuardReports
import XCTest

/// A set is judged on the path its client builds in each range of its versions; its verdict is the worst.
final class ClientPathEvaluatorTests: XCTestCase {
    typealias F = ResultFixtures
    /// The old root (key 3) and a new root (key 4) that newer versions' stores hold.
    let newRoot = F.newRoot

    func facts() -> ProbeFacts { F.rootMoveFacts() }

    func set(versions: String?) -> PolicySet {
        var s = F.set("app", [("*.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(3))]))])
        s.client = .android
        s.clientVersions = versions.flatMap(ClientVersions.init)
        return s
    }

    func testTheVerdictIsTheWorstOverTheVersionsAndEachRangeSaysWhy() throws {
        let e = try XCTUnwrap(ClientPathEvaluator.evaluate(facts(), policySet: set(versions: nil), environment: "prod",
                                                           named: false, now: F.now))
        XCTAssertEqual(e.verdict, .reject)
        XCTAssertEqual(e.reason, .pinMismatch)
        XCTAssertEqual(e.paths.map { $0.versions?.description }, ["24-33", "34-37"])
        XCTAssertEqual(e.paths.map(\.verdict), [.accept, .reject])
        XCTAssertEqual(e.paths[1].anchor, newRoot.certSHA256)
        XCTAssertEqual(ProbeReport.words(e.paths[1]),
                       "rejects on Android API 34-37: the path ends at CN=Root YE and no pin matches a certificate of it")
    }

    func testClientVersionsLimitTheRangesJudged() throws {
        let e = try XCTUnwrap(ClientPathEvaluator.evaluate(facts(), policySet: set(versions: "21-30"), environment: "prod",
                                                           named: false, now: F.now))
        XCTAssertEqual(e.verdict, .accept)
        XCTAssertEqual(e.paths.map { $0.versions?.description }, ["24-30"])
    }

    func testNeighbouringRangesThatAgreeAreOne() throws {
        var f = facts()
        f.clientPaths.byClient[.android]![1].chain[2] = F.root
        let e = try XCTUnwrap(ClientPathEvaluator.evaluate(f, policySet: set(versions: nil), environment: "prod", named: false, now: F.now))
        XCTAssertEqual(e.paths.map { $0.versions?.description }, ["24-37"])
    }

    func testASetWithoutAClientIsJudgedOnTheProbesOnePath() throws {
        var s = set(versions: nil)
        s.client = .none
        s.clientVersions = nil
        let e = try XCTUnwrap(ClientPathEvaluator.evaluate(facts(), policySet: s, environment: "prod", named: false, now: F.now))
        XCTAssertEqual(e.verdict, .accept)
        XCTAssertTrue(e.paths.isEmpty)
    }

    func testVersionRangesParseStrictly() {
        XCTAssertEqual(ClientVersions("24-37")?.description, "24-37")
        XCTAssertEqual(ClientVersions("34")?.description, "34")
        XCTAssertEqual(ClientVersions("24-")?.description, "24-")
        for bad in ["", "-3", "37-24", "24 - 37", "+5", "99999", "a-b", "1-2-3"] {
            XCTAssertNil(ClientVersions(bad), bad)
        }
        XCTAssertEqual(ClientVersions("24-")?.intersection(ClientVersions("30-33")!)?.description, "30-33")
        XCTAssertNil(ClientVersions("24-29")?.intersection(ClientVersions("30-")!))
    }
}

/// Apple checks the app's pins on every candidate path; Android once, on the path it chose.
final class PinsOnEveryCandidateTests: XCTestCase {
    typealias F = ResultFixtures

    func testAnAlternativePathThePinsAcceptIsTheOneAppleTakes() throws {
        var f = F.facts()
        let leaf = f.servedChain[0], intermediate = f.servedChain[1]
        let newRoot = F.cert(2, spki: 4, cert: 14, notAfter: 5000, subject: "CN=Root YE", source: .store, selfIssued: true)
        var path = ClientPath(versions: ClientVersions("17-26"), chain: [leaf, intermediate, newRoot], trusted: true)
        path.alternatives = [[leaf, intermediate, F.root]]
        f.clientPaths = ClientPaths(byClient: [.ios: [path], .android: [
            ClientPath(versions: ClientVersions("24-37"), chain: [leaf, intermediate, newRoot], trusted: true),
        ]])
        for (client, verdict) in [(CTClient.ios, Verdict.accept), (.android, .reject)] {
            var s = F.set("app", [("*.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(3))]))])
            s.client = client
            let e = try XCTUnwrap(ClientPathEvaluator.evaluate(f, policySet: s, environment: "prod", named: false, now: F.now))
            XCTAssertEqual(e.verdict, verdict, "\(client)")
        }
    }
}

/// A hazard of the served chain for a set's client is written to the journal once, when it appears.
final class ServedChainHazardEventTests: XCTestCase {
    typealias F = ResultFixtures

    func testAHazardIsAnEventOnceWhileItLasts() throws {
        var f = F.facts()
        let hazard = "the server still sends CN=Old Cross issued by CN=Old Root, expired 2026-01-01 (not on the path this client builds)"
        f.clientPaths = ClientPaths(byClient: [.android: [
            ClientPath(versions: ClientVersions("24-37"), chain: [f.servedChain[0], f.servedChain[1], F.root], trusted: true,
                       hazards: [hazard]),
        ]])
        var s = F.set("app", [("*.example.com", HostPolicy(pins: [Pin(type: .spki, hash: F.h(3))]))])
        s.client = .android
        var detector = EventDetector(warningDays: 30)
        let target = F.target("api")
        let first = detector.observe(F.result(target, f, [s])).filter { $0.event == .servedChainHazard }
        XCTAssertEqual(first.count, 1)
        XCTAssertTrue(first.first?.message.contains(hazard) ?? false)
        XCTAssertTrue(first.first?.fields.contains { $0.0 == "PINGUARD_HAZARD" && $0.1 == hazard } ?? false)
        XCTAssertEqual(detector.observe(F.result(target, f, [s])).filter { $0.event == .servedChainHazard }.count, 0)
    }
}
