import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardReaders
import XCTest

/// Each client's paths above an issuer a renewal may come from, built from the bundled catalog's certificates and
/// the bundled stores: Let's Encrypt's Gen Y issuers reach ISRG Root X1 through the cross-sign of their root
/// where a store lacks the Gen Y root.
final class IssuerClientPathsTests: XCTestCase {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/PinGuardConfig/Resources").standardized

    func paths() throws -> IssuerClientPaths {
        let stores = try ClientTrustStores.bundled(path: Self.resources.appendingPathComponent(ClientTrustStores.resourceName).path)
            .map { data throws(ProbeError) in try ClientStore(data) }
        let bytes = try [UInt8](Data(contentsOf: Self.resources.appendingPathComponent("issuer_catalog_certificates.pem")))
        return IssuerClientPaths(judge: ClientPathJudge(stores: stores), certificates: try CertificateFile.derCertificates(bytes, name: "bundle").map(\.bytes))
    }

    func option(_ name: String) throws -> IssuerOption {
        let catalog = try IssuerCatalogReader.parse(try [UInt8](Data(contentsOf: Self.resources.appendingPathComponent("issuer_catalog.json"))), file: "catalog")
        let issuer = try XCTUnwrap(catalog.pools.flatMap(\.issuers).first { $0.name == name })
        return IssuerOption(name: issuer.name, chain: issuer.chain)
    }

    func testGenYIssuersReachTheOldRootThroughTheCrossSignWhereAStoreLacksTheNewRoot() throws {
        let finder = try paths()
        XCTAssertGreaterThan(finder.count, 200, "the bundle holds every active issuer of the catalog and the roots' cross-signs")
        let at = Date(timeIntervalSince1970: 1_796_256_000) // 2026-12-03
        let found = try XCTUnwrap(finder.clientPaths(above: try option("YR1"), at: at))
        let android = try XCTUnwrap(found.byClient[.android])
        XCTAssertEqual(android.map { $0.versions?.description }, ["24", "25-37"])
        XCTAssertEqual(android.map(\.trusted), [false, true], "ISRG Root X1 enters Android at API 25")
        for client in [CTClient.android, .chrome, .ios, .jvm] {
            let path = try XCTUnwrap(found.byClient[client]?.last, "\(client)")
            XCTAssertTrue(path.trusted, "\(client): \(path.reason ?? "")")
            XCTAssertEqual(path.chain.map { String($0.subject.prefix { $0 != "," }) }, ["CN=YR1", "CN=Root YR", "CN=ISRG Root X1"], "\(client)")
            XCTAssertEqual(path.chain.map(\.source), [.served, .served, .store], "\(client): through the served cross-sign")
        }
        XCTAssertNil(finder.clientPaths(above: IssuerOption(name: "R12", chain: []), at: at))
    }
}
