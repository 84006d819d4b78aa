import Foundation
import PinGuardState
import XCTest
import PinGuardCore

/// One writer per file, readers beside it without a lock and without blocking it.
final class StateLockingTests: XCTestCase {
    func testSecondWriterIsRefusedWhileTheFirstHoldsTheFile() throws {
        let path = try makeDirectory() + "/state.db"
        let first = try StateStore.open(path: path, readOnly: false)
        assertStateError(.locked, path: path) { () throws(StateError) in try StateStore.open(path: path, readOnly: false) }
        first.close()
        XCTAssertNoThrow(try StateStore.open(path: path, readOnly: false))
    }

    func testAnotherProcessSeesTheWritersLock() throws {
        let path = try makeDirectory() + "/state.db"
        guard shell("flock", "--version").status == 0 else { throw XCTSkip("flock(1) is not installed") }
        let store = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(shell("flock", "--nonblock", "--conflict-exit-code", "75", path, "true").status, 75)
        store.close()
        XCTAssertEqual(shell("flock", "--nonblock", "--conflict-exit-code", "75", path, "true").status, 0)
    }

    func testReadersOpenWhileTheWriterHoldsTheFileAndSeeCommittedRounds() throws {
        let path = try makeDirectory() + "/state.db"
        let writer = try StateStore.open(path: path, readOnly: false)
        try commitRound(writer, now: 100, [("t1", "a1", testChain(leaf: 1))])
        let reader = try StateStore.open(path: path, readOnly: true)
        XCTAssertTrue(reader.isReadOnly)
        XCTAssertEqual(reader.targetNames, ["t1"])

        try commitRound(writer, now: 200, [("t2", "a1", testChain(leaf: 2))])
        XCTAssertEqual(reader.targetNames, ["t1"], "a reader keeps the snapshot it loaded")
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).targetNames, ["t1", "t2"])
    }

    func testWriterCommitsWhileAReaderHoldsAReadTransaction() throws {
        let path = try makeDirectory() + "/state.db"
        let writer = try StateStore.open(path: path, readOnly: false)
        try commitRound(writer, now: 100, [("t1", "a1", testChain(leaf: 1))])
        let reading = try RawSQLite(path)
        try reading.query("BEGIN")
        XCTAssertEqual(try reading.query("SELECT count(*) FROM target"), ["1"])

        // The reader's transaction stays open on this very thread until after the commit: a commit that waited for
        // it could only end in SQLITE_BUSY (a thrown error) once the store's busy timeout ran out, never succeed. In
        // WAL, the mode the writer sets, SQLite makes no writer wait for a reader.
        XCTAssertEqual(try reading.query("PRAGMA journal_mode"), ["wal"])
        let many = (2..<2_000).map { ("t\($0)", "a1", testChain(leaf: UInt64($0))) }
        XCTAssertEqual(try commitRound(writer, now: 200, many).chainsInserted, 1_998, "the commit did not wait for the reader")
        XCTAssertEqual(try reading.query("SELECT count(*) FROM target"), ["1"], "the reader's snapshot holds")
        try reading.query("COMMIT")
        XCTAssertEqual(try reading.query("SELECT count(*) FROM target"), ["1999"])
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).targetNames.count, 1_999)
    }

    func testReadOnlyStoreRefusesToCommitButKeepsObserving() throws {
        let path = try makeDirectory() + "/state.db"
        try StateStore.open(path: path, readOnly: false).close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try StateStore.open(path: path, readOnly: true)
        let round = reader.beginRound(now: 100)
        XCTAssertEqual(round.observe(target: "t", address: "a1", chain: testChain(leaf: 1)), .firstSight)
        assertStateError(.readOnly, path: path) { () throws(StateError) in try reader.commit(round) }
        XCTAssertEqual(reader.targetNames, ["t"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testClosedStoreRefusesToCommitAndStillAnswersReads() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", testChain(leaf: 1))])
        store.close()
        assertStateError(.closed, path: path) { () throws(StateError) in try store.commit(store.beginRound(now: 200)) }
        XCTAssertEqual(store.targetNames, ["t"])
    }
}
