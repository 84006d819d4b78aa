import Foundation
import PinGuardCore
import PinGuardReaders
@testable import PinGuardService
import XCTest

/// A `ResultStore` keeps one copy of each certificate's facts across the chains of all its results (a leaf
/// in the served and the verified chain, an intermediate under thousands of targets), and forgets the
/// certificates no result holds any more.
final class ResultStoreCertificateSharingTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func hash(_ i: Int, _ salt: UInt8) -> String {
        var bytes = [UInt8](repeating: salt, count: 32)
        bytes[0] = UInt8(i % 256); bytes[1] = UInt8(i / 256)
        return Base64.encode(bytes)
    }

    /// Each certificate built afresh, as a probe parses the served and the verified chain apart.
    func intermediate() -> ChainCertificate {
        ChainCertificate(depth: 1, subject: "CN=Intermediate", issuer: "CN=Root", serial: "02", notBefore: now.addingTimeInterval(-1e7),
                         notAfter: now.addingTimeInterval(1e8), spkiSHA256: hash(0, 5), certSHA256: hash(0, 6), keyType: "EC-256", isCA: true)
    }

    func root() -> ChainCertificate {
        ChainCertificate(depth: 2, subject: "CN=Root", issuer: "CN=Root", serial: "01", notBefore: now.addingTimeInterval(-1e8),
                         notAfter: now.addingTimeInterval(3e8), spkiSHA256: hash(0, 3), certSHA256: hash(0, 4), keyType: "EC-256",
                         isCA: true, selfIssued: true, source: .store)
    }

    func leaf(_ i: Int, notAfterDays: Double = 90) -> ChainCertificate {
        ChainCertificate(depth: 0, subject: "CN=t\(i).example", issuer: "CN=Intermediate", serial: String(i, radix: 16),
                         notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(86_400 * notAfterDays),
                         spkiSHA256: hash(i, 1), certSHA256: hash(i, 2), keyType: "EC-256")
    }

    func result(target i: Int, leaf l: Int? = nil, notAfterDays: Double = 90) -> TargetResult {
        let facts = ProbeFacts(host: "t\(i).example", port: 443, address: "127.0.0.1:443", duration: 0.01, tlsVersion: "TLSv1.3",
                               servedChain: [leaf(l ?? i, notAfterDays: notAfterDays), intermediate()],
                               verifiedChain: [leaf(l ?? i, notAfterDays: notAfterDays), intermediate(), root()],
                               trusted: true, finishedAt: now)
        return TargetResult.evaluate(facts, target: Target(host: "t\(i).example", name: "t\(i)"), sets: [], now: now)
    }

    func store(_ count: Int) -> ResultStore {
        var config = ServiceConfig()
        config.targets = (0..<count).map { Target(host: "t\($0).example", name: "t\($0)") }
        return ResultStore(config: config, sets: [])
    }

    func testTheLeafOfTheServedAndTheVerifiedChainIsOneCopyWithItsOwnDepthAndSource() throws {
        let s = store(1)
        _ = s.record(result(target: 0), generation: 0, now: now)
        let facts = try XCTUnwrap(s.result(named: "t0")).nodes[0].facts
        XCTAssertTrue(facts.servedChain[0].sharesFacts(with: facts.verifiedChain[0]))
        XCTAssertTrue(facts.servedChain[1].sharesFacts(with: facts.verifiedChain[1]))
        XCTAssertEqual(facts.servedChain, [leaf(0), intermediate()])
        XCTAssertEqual(facts.verifiedChain, [leaf(0), intermediate(), root()])
        XCTAssertEqual(facts.verifiedChain.map(\.source), [.served, .served, .store])
    }

    func testTargetsShareTheirCommonCertificates() throws {
        let s = store(2)
        _ = s.record(result(target: 0), generation: 0, now: now)
        _ = s.record(result(target: 1), generation: 0, now: now)
        let a = try XCTUnwrap(s.result(named: "t0")).nodes[0].facts, b = try XCTUnwrap(s.result(named: "t1")).nodes[0].facts
        XCTAssertTrue(a.verifiedChain[1].sharesFacts(with: b.verifiedChain[1]))
        XCTAssertTrue(a.verifiedChain[2].sharesFacts(with: b.verifiedChain[2]))
        XCTAssertFalse(a.servedChain[0].sharesFacts(with: b.servedChain[0]))
    }

    func testACertificateWithTheSameHashButOtherFactsKeepsItsOwn() throws {
        let s = store(2)
        _ = s.record(result(target: 0, leaf: 7, notAfterDays: 90), generation: 0, now: now)
        _ = s.record(result(target: 1, leaf: 7, notAfterDays: 5), generation: 0, now: now)
        let a = try XCTUnwrap(s.result(named: "t0")).nodes[0].facts, b = try XCTUnwrap(s.result(named: "t1")).nodes[0].facts
        XCTAssertEqual(a.servedChain[0].notAfter, now.addingTimeInterval(86_400 * 90))
        XCTAssertEqual(b.servedChain[0].notAfter, now.addingTimeInterval(86_400 * 5))
    }

    func testCertificatesNoResultHoldsAreForgottenAndThoseInUseKept() throws {
        let s = store(2)
        _ = s.record(result(target: 1), generation: 0, now: now)
        // One target whose leaf changes 3,000 times: without pruning the table would hold every old leaf.
        for l in 1_000..<4_000 { _ = s.record(result(target: 0, leaf: l), generation: 0, now: now) }
        XCTAssertLessThanOrEqual(s.certificatesKept, 1_024)
        // The certificates still in use survived the prunes: a new result shares them.
        _ = s.record(result(target: 0, leaf: 1), generation: 0, now: now)
        let a = try XCTUnwrap(s.result(named: "t0")).nodes[0].facts, b = try XCTUnwrap(s.result(named: "t1")).nodes[0].facts
        XCTAssertTrue(a.servedChain[0].sharesFacts(with: b.servedChain[0]))
        XCTAssertTrue(a.verifiedChain[2].sharesFacts(with: b.verifiedChain[2]))
    }
}
