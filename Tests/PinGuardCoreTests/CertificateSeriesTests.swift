import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardTestSupport

/// `metrics.certificates: leaf` keeps the per-certificate series to the leaf without losing a fact that an
/// alert needs: the chain's earliest expiry and every pin decision stay.
final class CertificateSeriesTests: XCTestCase {
    typealias F = ResultFixtures

    private func samples(_ certificates: CertificateSeries) throws -> [ExpositionSample] {
        // The intermediate expires before the leaf, so the earliest expiry is not the leaf's.
        var s = MetricsSnapshot()
        s.results = [F.result(F.target("api"), F.facts(leafDays: 5000), [F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])])]
        s.certificates = certificates
        return try Exposition(String(decoding: MetricsRenderer.render(s), as: UTF8.self)).samples
    }

    func testLeafModeWritesCertificateSeriesForTheLeafOnly() throws {
        let chain = try samples(.chain), leaf = try samples(.leaf)
        for family in ["pinguard_cert_info", "pinguard_cert_not_after_timestamp_seconds", "pinguard_cert_not_before_timestamp_seconds"] {
            XCTAssertEqual(chain.filter { $0.name == family }.map { $0.labels["depth"] }, ["0", "1", "2"], family)
            XCTAssertEqual(leaf.filter { $0.name == family }.map { $0.labels["depth"] }, ["0"], family)
        }
        let earliest = "pinguard_chain_earliest_expiry_timestamp_seconds"
        XCTAssertEqual(leaf.first { $0.name == earliest }?.value, chain.first { $0.name == earliest }?.value)
        XCTAssertEqual(leaf.first { $0.name == earliest }?.value, F.intermediate.notAfter.timeIntervalSince1970,
                       "the chain's earliest expiry is the intermediate's, in both modes")
        let rest = { (all: [ExpositionSample]) in all.filter { !$0.name.hasPrefix("pinguard_cert_") }.map(\.name) }
        XCTAssertEqual(rest(leaf), rest(chain), "every other series is unchanged")
    }

    func testConfigKey() throws {
        XCTAssertEqual(try ServiceConfigParser.parse("metrics: {certificates: leaf}\n", file: "c.yml").certificateSeries, .leaf)
        XCTAssertEqual(try ServiceConfigParser.parse("listen: \":1\"\n", file: "c.yml").certificateSeries, .chain)
        XCTAssertThrowsError(try ServiceConfigParser.parse("metrics: {certificates: all}\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:1: metrics.certificates: \"all\" is not one of leaf, chain")
        }
    }
}
