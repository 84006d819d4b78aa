import Foundation
import PinGuardCore
import PinGuardTestSupport
@testable import PinGuardProbe
import PinGuardProbeTestSupport
import XCTest

/// A chain served again is not verified again, and what the probe reports from the stored verification is
/// what a fresh verification reports: trusted, untrusted, wrong-host, expired and self-signed chains.
final class VerificationCacheTests: XCTestCase {
    /// The leaves whose chains each end differently: trusted, another CA, a name mismatch, expired, self-signed.
    private let cases = ["valid", "otherca", "wronghost", "expired", "selfsigned"]

    func testASecondProbeOfTheSameChainReportsWhatAFreshVerificationReports() throws {
        let s = try LiveServers.shared()
        let cached = try TLSProber(caFile: s.pki.caBundle)
        for name in cases {
            let first = cached.probe(s.request(name))
            let second = cached.probe(s.request(name))
            let fresh = try TLSProber(caFile: s.pki.caBundle).probe(s.request(name))
            XCTAssertNil(second.error, name)
            for facts in [first, second] {
                XCTAssertEqual(facts.trusted, fresh.trusted, name)
                XCTAssertEqual(facts.trustError, fresh.trustError, name)
                XCTAssertEqual(facts.servedChain, fresh.servedChain, name)
                XCTAssertEqual(facts.verifiedChain, fresh.verifiedChain, name)
            }
        }
        XCTAssertEqual(cached.verifications.statistics.misses, cases.count, "each chain verified once")
        XCTAssertEqual(cached.verifications.statistics.hits, cases.count, "and taken from the cache the second time")
    }

    func testTheExpectedOutcomesComeFromTheCache() throws {
        let s = try LiveServers.shared()
        let prober = try TLSProber(caFile: s.pki.caBundle)
        _ = cases.map { prober.probe(s.request($0)) }
        let again = Dictionary(uniqueKeysWithValues: cases.map { ($0, prober.probe(s.request($0))) })
        XCTAssertTrue(try XCTUnwrap(again["valid"]).trusted)
        XCTAssertEqual(try XCTUnwrap(again["valid"]).verifiedChain.map(\.source), [.served, .served, .store])
        XCTAssertEqual(again["wronghost"]?.trustError, "hostname mismatch")
        XCTAssertEqual(again["expired"]?.trustError, "certificate has expired")
        XCTAssertFalse(try XCTUnwrap(again["otherca"]).trusted)
        XCTAssertFalse(try XCTUnwrap(again["selfsigned"]).trusted)
        XCTAssertEqual(prober.verifications.statistics.hits, cases.count)
    }

    func testTheSameChainForAnotherNameOrAnAddressIsJudgedForIt() throws {
        let s = try LiveServers.shared()
        let prober = try TLSProber(caFile: s.pki.caBundle)
        // The farm's default site answers any other name, and an address, with the `valid` chain.
        let requests = [ProbeRequest(host: "localhost", port: s.farm.port, connect: ["127.0.0.1"], timeout: 5),
                        s.request("valid"),
                        ProbeRequest(host: "localhost", port: s.farm.port, connect: ["127.0.0.1"], timeout: 5),
                        ProbeRequest(host: "127.0.0.1", port: s.farm.port, timeout: 5),
                        s.request("valid")]
        let facts = requests.map { prober.probe($0) }
        for (request, cached) in zip(requests, facts) {
            let fresh = try TLSProber(caFile: s.pki.caBundle).probe(request)
            XCTAssertEqual(cached.trusted, fresh.trusted, request.host)
            XCTAssertEqual(cached.trustError, fresh.trustError, request.host)
            XCTAssertEqual(cached.verifiedChain, fresh.verifiedChain, request.host)
        }
        XCTAssertEqual(facts.map(\.trustError), ["hostname mismatch", nil, "hostname mismatch", "IP address mismatch", nil])
        // A mismatch hides whether the chain would verify, so `valid` runs a verification; after it, the
        // other name and the address are judged from the stored one.
        XCTAssertEqual(prober.verifications.statistics.misses, 2)
        XCTAssertEqual(prober.verifications.statistics.hits, 3)
    }

    func testAChangedTrustStoreMissesTheCache() throws {
        let s = try LiveServers.shared()
        let rootOnly = try TLSProber(caFile: s.pki.caBundle)
        XCTAssertFalse(rootOnly.probe(s.request("otherca")).trusted)
        XCTAssertFalse(rootOnly.probe(s.request("otherca")).trusted)
        // A reload with another CA file makes a new prober: its first verification runs, and trusts.
        let bothRoots = try TLSProber(caFile: s.pki.caBundleBothRoots)
        let facts = bothRoots.probe(s.request("otherca"))
        XCTAssertTrue(facts.trusted, facts.trustError ?? "")
        XCTAssertEqual(bothRoots.verifications.statistics.hits, 0)
        XCTAssertEqual(bothRoots.verifications.statistics.misses, 1)
    }

    func testAStoredVerificationEndsAtTheChainsFirstValidityBoundary() throws {
        let s = try LiveServers.shared()
        let clock = TestClock()
        let prober = try TLSProber(caFile: s.pki.caBundle, ctLogs: nil, now: { clock.now })
        let facts = prober.probe(s.request("valid"))
        let boundary = try XCTUnwrap(facts.verifiedChain.map(\.notAfter).min())
        clock.now = boundary.addingTimeInterval(-1)
        _ = prober.probe(s.request("valid"))
        XCTAssertEqual(prober.verifications.statistics.hits, 1, "still inside every certificate's validity")
        clock.now = boundary
        let after = prober.probe(s.request("valid"))
        XCTAssertEqual(prober.verifications.statistics.hits, 1, "the first notAfter has come: verified again")
        XCTAssertEqual(after.verifiedChain, facts.verifiedChain)
    }

    func testNoEntryOutlivesTheTrustStoresNextValidityBoundary() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let cache = VerificationCache(storeBoundaries: [start.addingTimeInterval(100)])
        let key = [UInt8](repeating: 7, count: 32).withUnsafeBytes { VerificationKey(digest: $0) }
        let outcome = VerificationOutcome(identity: CheckedIdentity(), returned: 1, error: 0, errorDepth: 0, chain: [],
                                          validUntil: .distantFuture)
        XCTAssertNil(cache.outcome(for: key, at: start))
        cache.store(outcome, for: key, at: start)
        XCTAssertNotNil(cache.outcome(for: key, at: start.addingTimeInterval(99)))
        XCTAssertNil(cache.outcome(for: key, at: start.addingTimeInterval(100)))
        cache.store(outcome, for: key, at: start.addingTimeInterval(100))
        XCTAssertNotNil(cache.outcome(for: key, at: start.addingTimeInterval(1_000)), "no store boundary after 100")
    }

    func testAFullCacheKeepsOnlyWhatIsStoredAfterIt() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let cache = VerificationCache(storeBoundaries: [], capacity: 2)
        let keys = (1...3).map { n in [UInt8](repeating: UInt8(n), count: 32).withUnsafeBytes { VerificationKey(digest: $0) } }
        let outcome = VerificationOutcome(identity: CheckedIdentity(), returned: 1, error: 0, errorDepth: 0, chain: [],
                                          validUntil: .distantFuture)
        for key in keys { cache.store(outcome, for: key, at: start) }
        XCTAssertNil(cache.outcome(for: keys[0], at: start))
        XCTAssertNotNil(cache.outcome(for: keys[2], at: start))
    }
}
