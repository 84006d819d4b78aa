import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto
import PinGuardReaders
import PinGuardTestSupport
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

/// A configured `issuer_catalog` brings the certificate files it names (`"pem"`, relative to its folder) to the
/// paths above its issuers; a file it names that cannot be read is left out.
final class CatalogCertificateFilesTests: XCTestCase {
    func testTheIssuersOfAConfiguredCatalogGetTheirPathsFromTheFilesItNames() throws {
        let pki = try GenerationMovePKI()
        let dir = try TemporaryDirectory.make("pinguard-catalog-files").path
        try FileManager.default.createDirectory(atPath: "\(dir)/catalog/pem", withIntermediateDirectories: true)
        try pki.intermediate.pem.write(toFile: "\(dir)/catalog/pem/ye1.pem", atomically: true, encoding: .utf8)
        try pki.yeByX2.pem.write(toFile: "\(dir)/catalog/pem/ye-by-x2.pem", atomically: true, encoding: .utf8)
        func entry(_ f: ChainCertificate, _ extra: [String: Any]) -> [String: Any] {
             ["name": ServedChain.commonName(f.subject), "subject": f.subject, "issuer": f.issuer, "spki_sha256": f.spkiSHA256,
                    "certificate_sha256": f.certSHA256].merging(extra) { _, new in new }
        }
        let catalog: [String: Any] = [
            "version": 1, "generated": "2026-12-03",
            "pools": [["name": "test", "operator": "Test", "issuers": [
                entry(try pki.intermediate.facts, ["active": true, "pem": "pem/ye1.pem", "chains_to": ["Test Root YE"]]),
                entry(try pki.x2ByX1.facts, ["active": true, "pem": "pem/missing.pem"]),
            ]]],
            "roots": [entry(try pki.ye.facts, ["cross_signs": [["status": "valid", "pem": "pem/ye-by-x2.pem"]]])],
        ]
        try JSONSerialization.data(withJSONObject: catalog).write(to: URL(fileURLWithPath: "\(dir)/catalog/catalog.json"))
        try pki.storesJSON(client: "android", known: "24-37", roots: ["x2": "30-", "ye": "36-"])
            .write(toFile: "\(dir)/stores.json", atomically: true, encoding: .utf8)
        try pki.androidPolicy(clientVersions: "30-37").write(toFile: "\(dir)/app.yml", atomically: true, encoding: .utf8)
        try "policies: [app.yml]\ntrust: {client_stores: stores.json}\nissuer_catalog: catalog/catalog.json\n"
            .write(toFile: "\(dir)/pinguard.yml", atomically: true, encoding: .utf8)

        let loaded = try ConfigurationLoader.load(path: "\(dir)/pinguard.yml")
        let paths = try XCTUnwrap(loaded.issuerPaths)
        XCTAssertEqual(paths.count, IssuerSourcesLoader.bundledCertificates.count + 2, "the two files that exist are read; the missing one is left out")
        let option = try XCTUnwrap(loaded.issuerCatalog.pools.first?.issuers.first)
        let android = try XCTUnwrap(paths.clientPaths(above: IssuerOption(name: option.name, chain: option.chain), at: Date())?.byClient[.android])
        XCTAssertEqual(android.map { $0.versions?.description }, ["24-29", "30-35", "36-37"])
        XCTAssertEqual(android.map(\.trusted), [false, true, true])
        XCTAssertEqual(android.map(GenerationMovePKI.names), [["Test YE1", "Test Root YE"], ["Test YE1", "Test Root YE", "Test Root X2"],
                                                              ["Test YE1", "Test Root YE"]], "through the named cross-sign where the store lacks YE")
    }
}
