import Foundation
import XCTest
@testable import PinGuardCore

/// The shipped message catalog (contrib/journald/pinguard.catalog) explains exactly the journal events
/// pinguard writes: one entry per `JournalEvent` under its `MESSAGE_ID`, no entry for an unknown id, the
/// entry's Subject equal to the event's `summary`, and only fields pinguard writes substituted, so that
/// `journalctl -x` explains every event. The catalog's syntax as journalctl sees it is checked by
/// scripts/test-systemd-unit.sh (`journalctl --update-catalog`, `journalctl -x`).
final class JournalCatalogTests: XCTestCase {
    /// One catalog entry: the id after "-- ", its header lines, and the explanation after the blank line.
    private struct Entry {
        var id: String
        var headers: [String: String] = [:]
        var malformedHeaders: [String] = []
        var body: [String] = []
    }

    /// The journal fields pinguard writes that every entry of some event carries (docs/reference.md,
    /// Journal events); journalctl substitutes a missing field with its bare name, so only these may
    /// appear as @FIELD@.
    /// The fields every entry carries; the rest are each event's own declaration.
    private static let commonFields: Set<String> = ["MESSAGE", "PRIORITY", "PINGUARD_EVENT"]

    /// The catalog found from this file's place in the repository, parsed as journalctl reads it:
    /// `#` lines are comments, "-- ID" starts an entry, headers run to the first blank line.
    private func catalogEntries() throws -> [Entry] {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = repository.appendingPathComponent("contrib/journald/pinguard.catalog")
        let text = try String(contentsOf: url, encoding: .utf8)
        var entries: [Entry] = []
        var inHeader = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("-- ") {
                entries.append(Entry(id: line.dropFirst(3).trimmingCharacters(in: .whitespaces)))
                inHeader = true
            } else if !entries.isEmpty, !line.hasPrefix("#") {
                if inHeader, line.isEmpty {
                    inHeader = false
                } else if inHeader {
                    guard let colon = line.range(of: ": "),
                          line[..<colon.lowerBound].wholeMatch(of: /[A-Z][A-Za-z-]*/) != nil else {
                        entries[entries.count - 1].malformedHeaders.append(line)
                        continue
                    }
                    entries[entries.count - 1].headers[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
                } else {
                    entries[entries.count - 1].body.append(line)
                }
            }
        }
        XCTAssertFalse(entries.isEmpty, "no entries in \(url.path)")
        return entries
    }

    func testEveryJournalEventHasExactlyOneCatalogEntry() throws {
        let ids = try catalogEntries().map(\.id)
        for event in JournalEvent.allCases {
            XCTAssertEqual(ids.filter { $0 == event.messageID }.count, 1,
                           "\(event.rawValue) (\(event.messageID)): catalog entries")
        }
    }

    func testCatalogHasNoEntryForAnUnknownMessageID() throws {
        let known = Set(JournalEvent.allCases.map(\.messageID))
        for entry in try catalogEntries() {
            XCTAssertTrue(known.contains(entry.id), "\(entry.id): in the catalog, not a JournalEvent")
        }
    }

    func testCatalogHasAsManyEntriesAsThereAreJournalEvents() throws {
        XCTAssertEqual(try catalogEntries().count, JournalEvent.allCases.count)
    }

    func testMessageIDsAreDistinct32DigitLowercaseHex() {
        let ids = JournalEvent.allCases.map(\.messageID)
        XCTAssertEqual(Set(ids).count, ids.count, "two events share a MESSAGE_ID")
        for event in JournalEvent.allCases {
            XCTAssertNotNil(event.messageID.wholeMatch(of: /[0-9a-f]{32}/),
                            "\(event.rawValue): MESSAGE_ID \(event.messageID) is not 32 lowercase hex digits")
        }
    }

    func testCatalogSubjectIsTheEventSummary() throws {
        let entries = try catalogEntries()
        for event in JournalEvent.allCases {
            guard let entry = entries.first(where: { $0.id == event.messageID }) else { continue }
            XCTAssertEqual(entry.headers["Subject"], event.summary, "\(event.rawValue): Subject")
        }
    }

    func testCatalogEntriesAreDefinedByPinguardWithWellFormedHeadersAndAnExplanation() throws {
        for entry in try catalogEntries() {
            XCTAssertEqual(entry.headers["Defined-By"], "pinguard", "\(entry.id): Defined-By")
            XCTAssertEqual(entry.malformedHeaders, [], "\(entry.id): lines in the header that are not \"Key: value\"")
            XCTAssertFalse(entry.body.joined().trimmingCharacters(in: .whitespaces).isEmpty,
                           "\(entry.id): no explanation text")
        }
    }

    /// Each entry substitutes only fields its event declares (`JournalEvent.declaration`).
    func testCatalogSubstitutesOnlyFieldsItsEventDeclares() throws {
        for entry in try catalogEntries() {
            let event = try XCTUnwrap(JournalEvent.allCases.first { $0.messageID == entry.id }, "\(entry.id): no event has this MESSAGE_ID")
            let text = (entry.body + [entry.headers["Subject"] ?? ""]).joined(separator: "\n")
            for match in text.matches(of: /@([A-Za-z0-9_]+)@/) {
                let field = String(match.output.1)
                XCTAssertTrue(Self.commonFields.contains(field) || event.declaration.fields.names.contains(field),
                              "\(event.rawValue): @\(field)@ is not a field its entries carry")
            }
        }
    }
}
