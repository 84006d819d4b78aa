import Foundation
import PinGuardState
import XCTest
import PinGuardCore

/// A file that is not pinguard's, is damaged or is too new is refused by writers and readers alike and
/// left exactly as it was, with no SQLite side files created beside it.
final class StateFileSafetyTests: XCTestCase {
    func testNewFileHasTheSchemaApplicationIDAndWAL() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        let raw = try RawSQLite(path)
        XCTAssertEqual(try raw.query("PRAGMA journal_mode"), ["wal"])
        XCTAssertEqual(try raw.query("PRAGMA application_id"), ["\(0x7067_5374)"])
        XCTAssertEqual(try raw.query("PRAGMA user_version"), ["2"])
        XCTAssertEqual(try raw.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"), ["chain", "fetched_document", "target"])
        store.close()
    }

    func testEmptyFileIsReadAsEmptyAndBecomesANewStore() throws {
        let path = try makeDirectory() + "/state.db"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).targetNames, [])
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", testChain(leaf: 1))])
        store.close()
        XCTAssertEqual(try RawSQLite(path).query("PRAGMA user_version"), ["2"])
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).targetNames, ["t"])
    }

    func testAnotherApplicationsSQLiteFileIsRefusedAndUntouched() throws {
        let path = try makeDirectory() + "/state.db"
        let other = try RawSQLite(path, readOnly: false)
        try other.query("PRAGMA application_id = 42")
        try other.query("CREATE TABLE notes (body TEXT)")
        try other.query("INSERT INTO notes VALUES ('keep me')")
        try assertRefused(path, as: .foreign)
    }

    func testSQLiteFileWithoutAnApplicationIDIsRefusedAndUntouched() throws {
        let path = try makeDirectory() + "/state.db"
        try RawSQLite(path, readOnly: false).query("CREATE TABLE target (name TEXT)")
        try assertRefused(path, as: .foreign)
    }

    func testGarbageFileIsRefusedAndUntouched() throws {
        let path = try makeDirectory() + "/state.db"
        try Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, as: .foreign)
    }

    func testFileTruncatedMidPageIsRefusedAndUntouched() throws {
        let path = try filledStore()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2 + 1_000))
        try handle.close()
        try assertRefused(path, as: .corrupt)
    }

    func testFileCorruptedMidPageIsRefusedAndUntouched() throws {
        let path = try filledStore()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        for page in [2, 5, 9] {
            try handle.seek(toOffset: UInt64(page * 4096 + 100))
            handle.write(Data(repeating: 0xA5, count: 1_500))
        }
        try handle.close()
        try assertRefused(path, as: .corrupt)
    }

    func testNewerSchemaIsRefusedAndUntouched() throws {
        let path = try filledStore()
        try RawSQLite(path, readOnly: false).query("PRAGMA user_version = 99")
        try assertRefused(path, as: .newerSchema)
    }

    func testReaderOfAMissingFileFailsWithNotFoundAndCreatesNothing() throws {
        let directory = try makeDirectory()
        assertStateError(.notFound, path: directory + "/state.db") { () throws(StateError) in
            try StateStore.open(path: directory + "/state.db", readOnly: true)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    }

    func testErrorMessageQuotesAndEscapesThePath() {
        let error = StateError(.locked, path: "/tmp/a\"b\nc", cause: "held")
        XCTAssertEqual(error.message, #"state file "/tmp/a\"b\nc": held"#)
        XCTAssertEqual(error.description, error.message)
    }

    /// A closed store with a few hundred chains, so the file has many pages.
    private func filledStore() throws -> String {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, (0..<300).map { ("target-\($0).example", "a1", testChain(leaf: UInt64($0))) })
        store.close()
        return path
    }

    /// Asserts that a writer and a reader both refuse `path` with `code`, and that neither changed a byte
    /// of it nor created a file beside it.
    private func assertRefused(_ path: String, as code: StateError.Code, file: StaticString = #filePath,
                               line: UInt = #line) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory)
        for readOnly in [false, true] {
            assertStateError(code, path: path, file: file, line: line) { () throws(StateError) in
                try StateStore.open(path: path, readOnly: readOnly)
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "file bytes changed", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), listing, file: file, line: line)
    }
}
