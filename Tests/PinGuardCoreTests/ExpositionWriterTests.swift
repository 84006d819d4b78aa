import Foundation
import XCTest
@testable import PinGuardCore

/// Samples written through a declared family: label names from the declaration, values formatted as
/// Prometheus reads them.
final class ExpositionWriterTests: XCTestCase {
    static let pair = MetricFamily("test_pair", .gauge, labels: ["a", "b"], help: "Two labels;\nback\\slash.")
    static let bare = MetricFamily("test_total", .counter, help: "No labels.")

    func testLabelNamesComeFromTheDeclarationInOrder() {
        var w = ExpositionWriter(Self.pair, capacity: 0)
        w.begin(); w.label("x\"y"); w.label(-7); w.end(1)
        w.start(Self.bare)
        w.begin(); w.end(3)
        XCTAssertEqual(String(decoding: w.buffer, as: UTF8.self), """
            # HELP test_pair Two labels;\\nback\\\\slash.
            # TYPE test_pair gauge
            test_pair{a="x\\"y",b="-7"} 1
            # HELP test_total No labels.
            # TYPE test_total counter
            test_total 3

            """)
    }

    func testValuesAreWrittenAsPrometheusParsesThem() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (42, "42"), (-3, "-3"), (1_800_000_000, "1800000000"), (0.5, "0.5"),
            (1.0 / 3.0, "0.3333333333333333"), (1e20, "1e+20"), (-2.5e-7, "-2.5e-07"),
            (.nan, "NaN"), (.infinity, "+Inf"), (-.infinity, "-Inf"),
        ]
        for (value, text) in cases {
            var w = ExpositionWriter(Self.bare, capacity: 0)
            w.begin(); w.end(value)
            let last = String(decoding: w.buffer, as: UTF8.self).split(separator: "\n").last.map(String.init)
            XCTAssertEqual(last, "test_total \(text)", "\(value)")
            if value.isFinite {
                XCTAssertEqual(Double(text), value, "\(text) reads back as the value written")
            }
        }
        var dated = ExpositionWriter(Self.bare, capacity: 0)
        dated.begin(); dated.end(Date(timeIntervalSince1970: 1_800_000_000.25))
        XCTAssertTrue(String(decoding: dated.buffer, as: UTF8.self).hasSuffix("\ntest_total 1800000000.25\n"))
    }

    func testDeclarationsReadBackAsStrings() {
        XCTAssertEqual(Self.pair.name, "test_pair")
        XCTAssertEqual(Self.pair.labels, ["a", "b"])
        XCTAssertEqual(Self.bare.labels, [])
        XCTAssertEqual(PinGuardMetrics.certInfo.labels,
                       ["target", "address", "depth", "subject", "issuer", "serial", "spki_sha256", "cert_sha256", "source"])
        XCTAssertNotEqual(Self.pair, Self.bare)
        XCTAssertEqual(Self.pair, MetricFamily("test_pair", .gauge, labels: ["a", "b"], help: "Two labels;\nback\\slash."))
    }
}
