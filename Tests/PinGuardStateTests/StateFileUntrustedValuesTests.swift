import Foundation
import PinGuardCore
import PinGuardState
import XCTest

/// Every value read from the state file is input like any other: a value pinguard never writes makes the
/// file damaged (refused whole and left as it was) instead of crashing the process, a file that is not a
/// regular file is refused without blocking, and `check(path:)` says what a writer would find.
final class StateFileUntrustedValuesTests: XCTestCase {
    func testASchemaVersionBelowOneIsDamageNotACrash() throws {
        let path = try makeDirectory() + "/state.db"
        let raw = try RawSQLite(path, readOnly: false)
        try raw.query("PRAGMA application_id = \(0x7067_5374)")
        try raw.query("PRAGMA user_version = -1")
        try raw.query("CREATE TABLE x (a)")
        let message = try assertRefusedAndUntouched(path, as: .corrupt)
        XCTAssertTrue(message.hasSuffix("schema version -1 is not a version pinguard writes (1 to 2)"), message)
    }

    func testATimeOutsideWhatPinguardWritesIsDamageNotAnOverflow() throws {
        let path = try storeWithOneChain()
        try RawSQLite(path, readOnly: false).query("UPDATE chain SET last_seen = -9223372036854775808")
        let message = try assertRefusedAndUntouched(path, as: .corrupt)
        XCTAssertTrue(message.contains("chain row 1 holds -9223372036854775808 in column 13, not a time pinguard writes"), message)
    }

    func testCountsTextsAndCertificateDatesAreBounded() throws {
        for (update, cause) in [
            ("UPDATE target SET renewals = -1", "target row 1 holds -1 in column 2, not a count"),
            ("UPDATE target SET last_configured = 253402300800", "not a time pinguard writes"),
            ("UPDATE chain SET not_after = 9223372036854775807", "not a certificate date"),
            ("UPDATE chain SET address = hex(zeroblob(35000))", "chain row 1 holds 70000 bytes of text in column 2"),
        ] {
            let path = try storeWithOneChain()
            try RawSQLite(path, readOnly: false).query(update)
            let message = try assertRefusedAndUntouched(path, as: .corrupt)
            XCTAssertTrue(message.contains(cause), "\(update): \(message)")
        }
    }

    func testACertificateDateBefore1970IsKept() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", testChain(leaf: 1, notBefore: -86_400 * 365 * 30))])
        store.close()
        XCTAssertEqual(try StateStore.open(path: path, readOnly: true).history(target: "t").first?.chain.notBefore, -86_400 * 365 * 30)
    }

    func testAFIFOIsRefusedAtOnceByWriterAndReader() throws {
        let path = try makeDirectory() + "/state.db"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        for readOnly in [false, true] {
            let outcome = try finishes(within: 5) { () -> StateError? in
                do throws(StateError) { _ = try StateStore.open(path: path, readOnly: readOnly); return nil } catch { return error }
            }
            XCTAssertEqual(outcome?.code, .foreign, "readOnly \(readOnly)")
            XCTAssertEqual(outcome?.message, "state file \"\(path)\": not a regular file (a FIFO)")
        }
        XCTAssertEqual(try finishes(within: 5) { StateStore.check(path: path)?.code }, .foreign)
    }

    func testCheckSaysWhatAWriterWouldFindAndChangesNothing() throws {
        let directory = try makeDirectory()
        XCTAssertNil(StateStore.check(path: directory + "/missing.db"), "a missing file is created at start")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/missing.db"))
        XCTAssertNil(StateStore.check(path: try storeWithOneChain()))
        let junk = directory + "/junk.db"
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
        XCTAssertEqual(StateStore.check(path: junk)?.code, .foreign)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["junk.db"])
    }

    /// A closed store holding one target with one chain (target row 1, chain row 1).
    private func storeWithOneChain() throws -> String {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", testChain(leaf: 1))])
        store.close()
        return path
    }

    /// Asserts that a writer and a reader both refuse `path` with `code` and leave its bytes as they were;
    /// returns the error's message.
    private func assertRefusedAndUntouched(_ path: String, as code: StateError.Code, file: StaticString = #filePath,
                                           line: UInt = #line) throws -> String {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var message = ""
        for readOnly in [false, true] {
            assertStateError(code, path: path, file: file, line: line) { () throws(StateError) in
                do throws(StateError) { return try StateStore.open(path: path, readOnly: readOnly) } catch {
                    message = error.message
                    throw error
                }
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "file bytes changed", file: file, line: line)
        return message
    }

    /// `body`'s value, failing the test (instead of hanging it) when it blocks for `seconds`.
    private func finishes<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var value: T?
        Thread.detachNewThread {
            value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let value else {
            XCTFail("blocked for \(seconds) s")
            throw Blocked()
        }
        return value
    }

    private struct Blocked: Error {}
}
