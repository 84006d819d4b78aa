import Foundation
import PinGuardCore
import PinGuardTestSupport
@testable import PinGuardProbe
import PinGuardProbeTestSupport
import XCTest

/// A certificate a prober has read before is not read again: its facts are the first read's, shared, and
/// equal to what a fresh prober reads.
final class CertificateFactsCacheTests: XCTestCase {
    func testACertificateServedAgainSharesTheFactsOfTheFirstRead() throws {
        let s = try LiveServers.shared()
        let prober = try TLSProber(caFile: s.pki.caBundle)
        let first = prober.probe(s.request("valid"))
        let second = prober.probe(s.request("valid"))
        let fresh = try TLSProber(caFile: s.pki.caBundle).probe(s.request("valid"))
        XCTAssertEqual(second.servedChain, fresh.servedChain)
        XCTAssertEqual(second.verifiedChain, fresh.verifiedChain)
        for (a, b) in zip(first.verifiedChain, second.verifiedChain) { XCTAssertTrue(a.sharesFacts(with: b)) }
        XCTAssertFalse(first.verifiedChain[0].sharesFacts(with: fresh.verifiedChain[0]), "another prober reads its own")
    }

    func testTheSameIntermediateUnderTwoLeavesIsReadOnce() throws {
        let s = try LiveServers.shared()
        let prober = try TLSProber(caFile: s.pki.caBundle)
        let valid = prober.probe(s.request("valid"))
        let rsa = prober.probe(s.request("rsa"))
        XCTAssertTrue(valid.servedChain[1].sharesFacts(with: rsa.servedChain[1]))
        XCTAssertEqual(rsa.servedChain[1].depth, 1)
        XCTAssertEqual(rsa.verifiedChain.last?.source, .store)
        XCTAssertFalse(valid.servedChain[0].sharesFacts(with: rsa.servedChain[0]))
    }

    /// Two leaves under one intermediate hold one copy of their issuer's name (the key identifier, which the
    /// test PKI's leaves lack, is shared the same way).
    func testLeavesUnderOneIssuerShareTheIssuerTexts() throws {
        let s = try LiveServers.shared()
        let prober = try TLSProber(caFile: s.pki.caBundle)
        let valid = prober.probe(s.request("valid")).servedChain[0]
        let rsa = prober.probe(s.request("rsa")).servedChain[0]
        XCTAssertFalse(valid.sharesFacts(with: rsa))
        XCTAssertEqual(valid.issuer, rsa.issuer)
        XCTAssertEqual(Self.storage(valid.issuer), Self.storage(rsa.issuer), "one copy of the issuer's name")
    }

    /// Where a native string keeps its bytes.
    private static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
}
