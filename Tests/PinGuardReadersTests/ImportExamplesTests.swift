import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// The committed examples: policies/sources/* imported must equal policies/imported-*.yml byte for byte.
/// Set PINGUARD_UPDATE_IMPORT_EXAMPLES=1 to rewrite the committed outputs after an intended change.
final class ImportExamplesTests: XCTestCase {
    typealias Example = ImportExample

    static let examples = ImportExample.committed

    func importExample(_ e: Example) throws -> ImportResult {
        try PolicyImporter.importPolicy(format: e.format, contents: ImportTestSupport.bytes(e.source), file: e.source,
                                        name: e.name, environment: "prod")
    }

    func testEveryFormatHasAnExample() {
        XCTAssertEqual(Set(Self.examples.map(\.format)), Set(PolicyImportFormat.allCases))
    }

    func testImportedExamplesEqualCommittedFiles() throws {
        let update = ProcessInfo.processInfo.environment["PINGUARD_UPDATE_IMPORT_EXAMPLES"] == "1"
        for e in Self.examples {
            let result = try importExample(e)
            let url = ImportTestSupport.repoRoot.appendingPathComponent(e.output)
            if update { try Data(result.yaml.utf8).write(to: url) }
            let committed = try String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(result.yaml, committed, "\(e.output) is stale: re-run with PINGUARD_UPDATE_IMPORT_EXAMPLES=1")
        }
    }

    func testImportedExamplesRoundTrip() throws {
        for e in Self.examples {
            let result = try importExample(e)
            ImportTestSupport.assertRoundTrip(result)
            let committed = try PolicyParser.parse(String(decoding: ImportTestSupport.bytes(e.output), as: UTF8.self),
                                                   file: e.output)
            XCTAssertEqual(committed.strippingSourcePositions(), result.policySet.strippingSourcePositions(), e.output)
            XCTAssertEqual(result.policySet.file, e.source)
            XCTAssertFalse(result.findings.contains { $0.severity == .error }, "\(e.source): \(result.findings)")
        }
    }

    func testEveryRuleCommentNamesItsSource() throws {
        for e in Self.examples {
            let result = try importExample(e)
            let lines = result.yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (i, line) in lines.enumerated() where line.hasPrefix("      - pattern:") {
                var j = i - 1
                var comments: [String] = []
                while j >= 0, lines[j].hasPrefix("      #") { comments.append(lines[j]); j -= 1 }
                XCTAssertTrue(comments.contains { $0.contains("# \(e.source):") }, "\(e.output): \(line) has no source comment")
            }
        }
    }
}
