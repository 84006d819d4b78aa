import Foundation
import XCTest
@testable import PinGuardCore

/// Each journal event is declared once (`JournalEvent.declaration`); the decision mapping comes from it and the
/// documentation's table says the same.
final class JournalEventDeclarationTests: XCTestCase {
    func testEveryDecisionIsReportedByExactlyOneEvent() {
        for reason in DecisionReason.allCases {
            let reporting = JournalEvent.allCases.filter { $0.declaration.decision == reason }
            XCTAssertEqual(reporting.count, 1, "\(reason): \(reporting)")
            XCTAssertEqual(EventDetector.event(for: reason), reporting.first)
        }
    }

    func testTheReferenceTableGivesEachEventItsDeclaredIDAndPriority() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/reference.md"), encoding: .utf8)
        var documented: [String: (String, Int)] = [:]
        for line in reference.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[1].count == 34, let priority = Int(cells[2]) else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = (cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), priority)
        }
        for event in JournalEvent.allCases {
            let row = try XCTUnwrap(documented[event.rawValue], "\(event.rawValue) is not in the reference's table")
            XCTAssertEqual(row.0, event.messageID, event.rawValue)
            XCTAssertEqual(row.1, event.priority, event.rawValue)
        }
        XCTAssertEqual(documented.count, JournalEvent.allCases.count, "no documented event without a declaration")
    }

    /// The fields column of the reference's table names, group letters expanded, exactly the declared fields.
    func testTheReferenceTableGivesEachEventItsDeclaredFields() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/reference.md"), encoding: .utf8)
        let field = try NSRegularExpression(pattern: "PINGUARD_[A-Z0-9_]+")
        let groups = Dictionary(uniqueKeysWithValues: JournalFields.Group.allCases.map { ($0.rawValue, $0) })
        var checked = 0
        for line in reference.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 6, let event = JournalEvent(rawValue: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))) else { continue }
            let column = cells[5], ns = column as NSString
            var named = Set(field.matches(in: column, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) })
            for word in column.split(whereSeparator: { !$0.isLetter }) { if let g = groups[String(word)] { named.formUnion(g.names) } }
            XCTAssertEqual(named, event.declaration.fields.names, "\(event.rawValue): the reference names \(named.symmetricDifference(event.declaration.fields.names).sorted()) differently")
            checked += 1
        }
        XCTAssertEqual(checked, JournalEvent.allCases.count)
    }
}
