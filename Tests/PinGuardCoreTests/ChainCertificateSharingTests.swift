import Foundation
import PinGuardCore
import XCTest

/// A `ChainCertificate` behaves as a plain value (every property settable, equality by content) while its
/// copies share one copy of the facts that follow from the certificate's bytes.
final class ChainCertificateSharingTests: XCTestCase {
    func certificate(depth: Int = 0, hash: UInt8 = 1) -> ChainCertificate {
        ChainCertificate(depth: depth, subject: "CN=leaf.example.com,O=Example", issuer: "CN=Example Intermediate", serial: "0A1B",
                         notBefore: Date(timeIntervalSince1970: 1_700_000_000), notAfter: Date(timeIntervalSince1970: 1_800_000_000),
                         spkiSHA256: Base64.encode([UInt8](repeating: hash, count: 32)),
                         certSHA256: Base64.encode([UInt8](repeating: hash &+ 100, count: 32)), keyType: "EC-256")
    }

    func testCopiesShareFactsAndTheValueIsSmall() {
        let a = certificate()
        var b = a
        b.depth = 3
        b.source = .store
        XCTAssertTrue(a.sharesFacts(with: b), "depth and source are inline: setting them copies nothing")
        XCTAssertLessThanOrEqual(MemoryLayout<ChainCertificate>.stride, 24)
    }

    func testSettingAFactOfACopyLeavesTheOriginalAlone() {
        let a = certificate()
        var b = a
        b.subject = "CN=other.example.com"
        b.notAfter = Date(timeIntervalSince1970: 1_900_000_000)
        b.rawKeySHA256 = "raw"
        b.isCA = true
        XCTAssertEqual(a.subject, "CN=leaf.example.com,O=Example")
        XCTAssertEqual(a.notAfter, Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertNil(a.rawKeySHA256)
        XCTAssertFalse(a.isCA)
        XCTAssertEqual(b.subject, "CN=other.example.com")
        XCTAssertEqual(b.rawKeySHA256, "raw")
        XCTAssertTrue(b.isCA)
        XCTAssertFalse(a.sharesFacts(with: b))
        XCTAssertNotEqual(a, b)
    }

    func testEqualityComparesContentNotSharing() {
        let a = certificate(), b = certificate()
        XCTAssertFalse(a.sharesFacts(with: b))
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, certificate(depth: 1))
        XCTAssertNotEqual(a, certificate(hash: 2))
        var served = a
        served.source = .store
        XCTAssertNotEqual(a, served)
        var keyed = b
        keyed.keyType = "RSA-2048"
        XCTAssertNotEqual(a, keyed)
    }

    func testHoldsFactsAloneUntilCopied() {
        var a = certificate()
        XCTAssertTrue(a.holdsFactsAlone())
        let b = a
        XCTAssertFalse(a.holdsFactsAlone())
        withExtendedLifetime(b) {}
    }
}
