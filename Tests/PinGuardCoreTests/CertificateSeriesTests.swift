import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardTestSupport

/// `metrics.certificates` decides which certificates get series; the leaf is described per address, the
/// certificates above it once per distinct certificate, and no mode loses a fact that an alert needs: the
/// chain's earliest expiry and every pin decision stay.
final class CertificateSeriesTests: XCTestCase {
    typealias F = ResultFixtures

    private func samples(_ certificates: CertificateSeries, targets: [String] = ["api"]) throws -> [ExpositionSample] {
        // The intermediate expires before the leaf, so the earliest expiry is not the leaf's.
        var s = MetricsSnapshot()
        s.results = targets.enumerated().map { i, name in
            F.result(F.target(name), F.facts(leafKey: i == 0 ? 1 : UInt8(40 + i), leafCert: UInt8(20 + i), leafDays: 5000),
                     [F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])])
        }
        s.certificates = certificates
        return try Exposition(String(decoding: MetricsRenderer.render(s), as: UTF8.self)).samples
    }

    private static let leafFamilies = ["pinguard_cert_info", "pinguard_cert_not_after_timestamp_seconds", "pinguard_cert_not_before_timestamp_seconds"]
    private static let caFamilies = ["pinguard_ca_cert_info", "pinguard_ca_cert_not_after_timestamp_seconds", "pinguard_ca_cert_not_before_timestamp_seconds"]

    func testChainModeDescribesTheLeafPerAddressAndEachCertificateAboveItOnce() throws {
        let all = try samples(.chain, targets: ["api", "web", "shop"])
        for family in Self.leafFamilies {
            XCTAssertEqual(all.filter { $0.name == family }.map { $0.labels["depth"] }, ["0", "0", "0"], family)
        }
        let links = all.filter { $0.name == "pinguard_chain_cert_info" }
        XCTAssertEqual(links.count, 6, "intermediate and root of each of the three targets")
        XCTAssertEqual(Set(links.map { $0.labels["cert_sha256"] }), [F.intermediate.certSHA256, F.root.certSHA256])
        XCTAssertEqual(links.filter { $0.labels["target"] == "api" }.map { $0.labels["depth"] }, ["1", "2"])
        XCTAssertEqual(links.filter { $0.labels["target"] == "api" }.map { $0.labels["source"] }, ["served", "store"])
        for family in Self.caFamilies {
            XCTAssertEqual(all.filter { $0.name == family }.compactMap { $0.labels["cert_sha256"] }.sorted(),
                           [F.intermediate.certSHA256, F.root.certSHA256].sorted(), "\(family): once per distinct certificate")
        }
        let info = try XCTUnwrap(all.first { $0.name == "pinguard_ca_cert_info" && $0.labels["cert_sha256"] == F.intermediate.certSHA256 })
        XCTAssertEqual(info.labels["subject"], "CN=Intermediate")
        XCTAssertEqual(info.labels["spki_sha256"], F.intermediate.spkiSHA256)
        XCTAssertEqual(all.first { $0.name == "pinguard_ca_cert_not_after_timestamp_seconds" && $0.labels["cert_sha256"] == F.intermediate.certSHA256 }?.value,
                       F.intermediate.notAfter.timeIntervalSince1970)
    }

    func testLeafAndNoneModesDropSeriesButNotTheEarliestExpiryOrAVerdict() throws {
        let chain = try samples(.chain), leaf = try samples(.leaf), none = try samples(.none)
        for family in Self.leafFamilies {
            XCTAssertEqual(leaf.filter { $0.name == family }.map { $0.labels["depth"] }, ["0"], family)
            XCTAssertTrue(none.filter { $0.name == family }.isEmpty, family)
        }
        for family in ["pinguard_chain_cert_info"] + Self.caFamilies {
            XCTAssertFalse(chain.filter { $0.name == family }.isEmpty, family)
            XCTAssertTrue(leaf.filter { $0.name == family }.isEmpty, family)
            XCTAssertTrue(none.filter { $0.name == family }.isEmpty, family)
        }
        let earliest = "pinguard_chain_earliest_expiry_timestamp_seconds"
        for mode in [leaf, none] {
            XCTAssertEqual(mode.first { $0.name == earliest }?.value, F.intermediate.notAfter.timeIntervalSince1970,
                           "the chain's earliest expiry is the intermediate's, in every mode")
        }
        let certificateFamilies = Set(Self.leafFamilies + Self.caFamilies + ["pinguard_chain_cert_info"])
        let rest = { (all: [ExpositionSample]) in all.filter { !certificateFamilies.contains($0.name) }.map(\.name) }
        XCTAssertEqual(rest(leaf), rest(chain), "every other series is unchanged")
        XCTAssertEqual(rest(none), rest(chain), "every other series is unchanged")
    }

    func testConfigKey() throws {
        XCTAssertEqual(try ServiceConfigParser.parse("metrics: {certificates: leaf}\n", file: "c.yml").certificateSeries, .leaf)
        XCTAssertEqual(try ServiceConfigParser.parse("metrics: {certificates: none}\n", file: "c.yml").certificateSeries, .none)
        XCTAssertEqual(try ServiceConfigParser.parse("listen: \":1\"\n", file: "c.yml").certificateSeries, .chain)
        XCTAssertThrowsError(try ServiceConfigParser.parse("metrics: {certificates: all}\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:1: metrics.certificates: \"all\" is not one of chain, leaf, none")
        }
    }
}
