import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// The path each client builds above an issuer a renewal may come from is the path it builds above today's leaf
/// when that issuer serves today, version by version; an issuer that is no certificate authority, or whose
/// certificate is not known, gives no trusted path.
final class IssuerPathsTests: XCTestCase {
    /// The issuer and what the CA serves above it, as the catalog names an option: the issuer, then the roots.
    func option(_ pki: GenerationMovePKI, below: DemoCertificate? = nil) throws -> IssuerOption {
        IssuerOption(name: "Test YE1", chain: try ((below.map { [$0] } ?? []) + [pki.intermediate, pki.ye, pki.x2, pki.x1]).map { try $0.facts })
    }

    func stores(_ pki: GenerationMovePKI) throws -> [ClientStore] {
        [try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-"),
         try pki.store(.chrome, known: "120-140", x1: "105-", x2: "105-", ye: "130-"),
         try pki.store(.ios, known: "15-26", x1: "10-", x2: "16-", ye: nil),
         try pki.store(.jvm, known: nil, x1: "0-", x2: nil, ye: nil)]
    }

    func testThePathsAboveAnIssuerAreTheServedChainsPathsWithoutItsLeaf() throws {
        let pki = try GenerationMovePKI()
        let judge = ClientPathJudge(stores: try stores(pki))
        let served = try pki.paths(judge)
        let finder = IssuerClientPaths(judge: judge, certificates: [pki.intermediate, pki.yeByX2, pki.x2ByX1].map(\.der))
        let above = try XCTUnwrap(finder.clientPaths(above: try option(pki), at: Date()))
        XCTAssertEqual(Set(above.byClient.keys), [.android, .chrome, .ios, .jvm])
        for (client, paths) in served.byClient {
            let issuerPaths = try XCTUnwrap(above.byClient[client])
            XCTAssertEqual(issuerPaths.map { $0.versions?.description }, paths.map { $0.versions?.description }, "\(client)")
            XCTAssertEqual(issuerPaths.map(\.trusted), paths.map(\.trusted), "\(client)")
            XCTAssertEqual(issuerPaths.map { $0.chain.map(\.certSHA256) }, paths.map { $0.chain.dropFirst().map(\.certSHA256) }, "\(client)")
            XCTAssertEqual(issuerPaths.map { $0.alternatives.count }, paths.map { $0.alternatives.count }, "\(client)")
        }
        XCTAssertEqual(above.byClient[.android]?.map { $0.chain.last?.subject.contains("Test Root YE") }, [false, false, true],
                       "API 36-37 anchor at the new root")
    }

    func testAnIssuerThatIsNoCertificateAuthorityOrIsNotKnownGivesNoTrustedPath() throws {
        let pki = try GenerationMovePKI()
        let judge = ClientPathJudge(stores: [try pki.store(.android, known: "24-37", x1: "21-", x2: "30-", ye: "36-")])
        let finder = IssuerClientPaths(judge: judge, certificates: [pki.leaf, pki.intermediate, pki.yeByX2, pki.x2ByX1].map(\.der))
        XCTAssertEqual(finder.count, 4)
        // The leaf as the issuer of a next leaf, served with the intermediate that issued it.
        let notCA = try XCTUnwrap(finder.clientPaths(above: try option(pki, below: pki.leaf), at: Date())?.byClient[.android])
        XCTAssertEqual(notCA.map(\.trusted), [false, false, false])
        XCTAssertTrue(notCA.allSatisfy { $0.reason?.contains("is not a certificate authority") == true }, "\(notCA.map(\.reason))")
        let unknown = IssuerClientPaths(judge: judge, certificates: [pki.yeByX2, pki.x2ByX1].map(\.der))
        XCTAssertNil(unknown.clientPaths(above: try option(pki), at: Date()), "the issuer's own certificate is not known")
    }
}
