import Foundation
import XCTest
@testable import PinGuardCore
import PinGuardTestSupport

/// `PinGuardMetrics` is the single list of exported families: the exposition follows it exactly, and the
/// metric list for rules and dashboards and the reference documentation are checked against it.
final class MetricFamilyDeclarationTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testDeclarationsAreValidPrometheusNames() {
        let names = PinGuardMetrics.all.map(\.name)
        XCTAssertEqual(names.count, Set(names).count, "a family is declared twice")
        XCTAssertEqual(names.count, 81)
        let nameChars = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        for f in PinGuardMetrics.all {
            // process_* are the Prometheus process collector's names, which dashboards and alerts know.
            XCTAssertTrue((f.name.hasPrefix("pinguard_") || f.name.hasPrefix("process_")) && f.name.allSatisfy(nameChars.contains), f.name)
            // pinguard_shard_total is the name the sharding alerts and outside suites rely on (as kube-state-metrics'
            // shard total): a gauge, the number of shards, not a count of events.
            if f.name != "pinguard_shard_total" {
                XCTAssertEqual(f.type == .counter, f.name.hasSuffix("_total"), "\(f.name): counters and only counters end in _total")
            }
            XCTAssertEqual(f.labels.count, Set(f.labels).count, "\(f.name) declares a label twice")
            for l in f.labels {
                XCTAssertTrue(!l.isEmpty && !l.hasPrefix("__") && l.allSatisfy(nameChars.contains) && !l.first!.isNumber, "\(f.name): label \(l)")
            }
            XCTAssertGreaterThan(f.help.count, 10, "\(f.name) has a real help text")
            XCTAssertFalse(f.help.contains("SPEC"), "\(f.name): help points to docs/reference.md, not the spec")
            XCTAssertFalse(f.help.contains("\n"), f.name)
        }
    }

    func testExpositionAnnouncesTheDeclaredFamiliesInDeclaredOrder() {
        for snapshot in [MetricsSnapshot(), MetricsExpositionGoldenTests.richSnapshot()] {
            let lines = String(decoding: MetricsRenderer.render(snapshot), as: UTF8.self).split(separator: "\n")
            let help = lines.filter { $0.hasPrefix("# HELP ") }
            let type = lines.filter { $0.hasPrefix("# TYPE ") }
            XCTAssertEqual(help, PinGuardMetrics.all.map { "# HELP \($0.name) \($0.help)"[...] })
            XCTAssertEqual(type, PinGuardMetrics.all.map { "# TYPE \($0.name) \($0.type.rawValue)"[...] })
        }
    }

    func testEverySampleCarriesItsFamilysDeclaredLabelsInOrder() {
        let text = String(decoding: MetricsRenderer.render(MetricsExpositionGoldenTests.richSnapshot()), as: UTF8.self)
        let declared = Dictionary(uniqueKeysWithValues: PinGuardMetrics.all.map { ($0.name, $0.labels) })
        var seen: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let sample = ExpositionSample(line) else {
                XCTFail("does not parse: \(line)")
                continue
            }
            if sample.name == PinGuardMetrics.targetInfo.name {
                // The declared labels first, then the target's own labels from its target file.
                XCTAssertEqual(Array(sample.labelNames.prefix(1)), declared[sample.name], String(line))
            } else {
                XCTAssertEqual(sample.labelNames, declared[sample.name], String(line))
            }
            seen.insert(sample.name)
        }
        XCTAssertEqual(seen, Set(declared.keys), "the rich snapshot has a sample of every family")
    }

    /// The list that Prometheus rules, their tests and the dashboard are checked against is exactly what
    /// pinguard declares, with no exceptions.
    func testExportedMetricsListMatchesTheDeclarations() throws {
        let file = Self.packageRoot.appendingPathComponent("contrib/prometheus/exported-metrics.txt")
        let listed = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertEqual(listed.count, Set(listed).count, "a name is listed twice")
        let declared = Set(PinGuardMetrics.all.map(\.name))
        XCTAssertEqual(Set(listed).subtracting(declared).sorted(), [], "listed in \(file.lastPathComponent) but not exported")
        XCTAssertEqual(declared.subtracting(listed).sorted(), [], "exported but missing from \(file.lastPathComponent)")
    }

    /// docs/reference.md documents every exported family by its name in backticks; a missing file fails.
    func testReferenceDocumentsEveryExportedFamily() throws {
        let file = Self.packageRoot.appendingPathComponent("docs/reference.md")
        let reference = try XCTUnwrap(try? String(contentsOf: file, encoding: .utf8), "\(file.path) is missing")
        for f in PinGuardMetrics.all {
            XCTAssertTrue(reference.contains("`\(f.name)`"), "\(f.name) is not documented in docs/reference.md")
        }
    }
}
