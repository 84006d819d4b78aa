import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardTestSupport
import XCTest

/// A pool file may hold the issuing certificate alone: its path to a root is built as a client builds it, from
/// the configured CA file, so a root pin under the pool is judged against the root a renewal would end at.
final class IssuerPoolPathTests: XCTestCase {
    func testAPoolFileHoldingOnlyTheIssuerIsCompletedUpToTheConfiguredRoot() throws {
        let pki = try TestPKI.shared()
        var config = ServiceConfig()
        config.caFile = pki.caBundle
        config.issuerPools = ["private": [pki.intermediate]]
        let pools = try IssuerSourcesLoader.pools(config, path: "pinguard.yml", base: "")
        let chain = try XCTUnwrap(pools["private"]?.first?.chain)
        XCTAssertEqual(chain.count, 2, "the issuer, then the root of the CA file")
        XCTAssertEqual(chain.map(\.depth), [1, 2])
        XCTAssertTrue(chain[1].selfIssued)
        XCTAssertEqual(chain[1].source, .store)
        let root = try XCTUnwrap(try CertificateReader.load(Array(Data(contentsOf: URL(fileURLWithPath: pki.root))),
                                                                           file: pki.root).first)
        XCTAssertEqual(chain[1].spkiSHA256, root.spkiSHA256)
    }

    func testAnIssuerWithoutAKnownRootStaysAsGiven() throws {
        let pki = try TestPKI.shared()
        var config = ServiceConfig()
        config.caFile = pki.root
        config.issuerPools = ["other": [pki.otherIntermediate]]
        let chain = try XCTUnwrap(try IssuerSourcesLoader.pools(config, path: "pinguard.yml", base: "")["other"]?.first?.chain)
        XCTAssertEqual(chain.count, 1, "no path to the CA file's root: judged as given")
    }
}
