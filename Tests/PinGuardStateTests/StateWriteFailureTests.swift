import Foundation
import PinGuardState
import XCTest
import PinGuardCore

/// A commit that cannot write (read-only file or directory, full disk) throws, keeps everything in memory,
/// and the next commit once writable writes the failed round too; nothing stored before is lost.
final class StateWriteFailureTests: XCTestCase {
    private let first = testChain(leaf: 1)
    private let second = testChain(leaf: 2)

    func testCommitToAFileMadeReadOnlyFailsThenWritesTheRoundOnceWritable() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t1", "a1", first)])
        let restore = try makeReadOnly(file: path)
        try assertFailedRoundIsKeptAndWritten(store, path: path, code: .readOnly, restore: restore)
    }

    func testWriterOpenedOnAReadOnlyFileCommitsOnceWritable() throws {
        let path = try makeDirectory() + "/state.db"
        try commitRound(try StateStore.open(path: path, readOnly: false), now: 100, [("t1", "a1", first)])
        let restore = try makeReadOnly(file: path)
        let store = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(store.targetNames, ["t1"])
        try assertFailedRoundIsKeptAndWritten(store, path: path, code: .readOnly, restore: restore)
    }

    func testCommitToADirectoryMadeReadOnlyFailsThenWritesTheRoundOnceWritable() throws {
        let directory = try makeDirectory()
        let path = directory + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t1", "a1", first)])
        let restore = try makeReadOnly(directory: directory)
        try assertFailedRoundIsKeptAndWritten(store, path: path, code: .readOnly, restore: restore)
    }

    func testWriterOpeningInAReadOnlyDirectoryFailsAndLeavesTheFileAlone() throws {
        let directory = try makeDirectory()
        let path = directory + "/state.db"
        try commitRound(try StateStore.open(path: path, readOnly: false), now: 100, [("t1", "a1", first)])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let restore = try makeReadOnly(directory: directory)
        defer { restore() }
        guard runningAsRoot else { throw XCTSkip("a mode-0555 directory still lets SQLite create its side files") }
        assertStateError(.readOnly, path: path) { () throws(StateError) in try StateStore.open(path: path, readOnly: false) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testCommitToAFullDiskFailsThenWritesTheRoundOnceSpaceIsFreed() throws {
        let directory = try makeDirectory()
        guard runningAsRoot else { throw XCTSkip("not root: cannot mount a small tmpfs to fill") }
        let mounted = shell("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", directory)
        guard mounted.status == 0 else { throw XCTSkip("cannot mount a tmpfs to fill: \(mounted.output)") }
        defer { shell("umount", "-l", directory) }
        let path = directory + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t1", "a1", first)])
        let filler = directory + "/filler"
        fill(filler)

        let round = store.beginRound(now: 200)
        for n in 0..<3_000 { round.observe(target: "bulk-\(n).example.com", address: "a1", chain: testChain(leaf: UInt64(n))) }
        assertStateError(.diskFull, path: path) { () throws(StateError) in try store.commit(round) }
        XCTAssertEqual(store.latest(target: "bulk-2999.example.com", address: "a1")?.chain, testChain(leaf: 2_999))
        XCTAssertEqual(store.latest(target: "t1", address: "a1")?.chain, first)

        try FileManager.default.removeItem(atPath: filler)
        XCTAssertEqual(try commitRound(store, now: 300, []).chainsInserted, 3_000)
        store.close()
        let reopened = try StateStore.open(path: path, readOnly: true)
        XCTAssertEqual(reopened.targetNames.count, 3_001)
        XCTAssertEqual(reopened.latest(target: "t1", address: "a1")?.chain, first)
    }

    /// Observes a new target, expects the commit to fail with `code`, checks the memory still has it,
    /// restores writability, and checks the next (empty) round's commit writes it and that it is on disk.
    private func assertFailedRoundIsKeptAndWritten(_ store: StateStore, path: String, code: StateError.Code,
                                                   restore: () -> Void, line: UInt = #line) throws {
        var restored = false
        defer { if !restored { restore() } }
        let round = store.beginRound(now: 200)
        XCTAssertEqual(round.observe(target: "t2", address: "a1", chain: second), .firstSight, line: line)
        assertStateError(code, path: path, line: line) { () throws(StateError) in try store.commit(round) }
        XCTAssertEqual(store.latest(target: "t2", address: "a1")?.chain, second, line: line)
        XCTAssertTrue(store.hasPendingChanges, line: line)

        restore()
        restored = true
        let written = try commitRound(store, now: 300, [])
        XCTAssertEqual(written, StateCommit(targetsWritten: 1, chainsInserted: 1), line: line)
        store.close()
        let reopened = try StateStore.open(path: path, readOnly: true)
        XCTAssertEqual(reopened.targetNames, ["t1", "t2"], line: line)
        XCTAssertEqual(reopened.latest(target: "t1", address: "a1")?.chain, first, line: line)
    }

    /// Makes `file` unwritable: `chattr +i` as root (file modes do not stop root), mode 0444 otherwise.
    private func makeReadOnly(file: String) throws -> () -> Void {
        guard runningAsRoot else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
            return { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
        }
        let result = shell("chattr", "+i", file)
        guard result.status == 0 else { throw XCTSkip("running as root and chattr +i failed: \(result.output)") }
        return { self.shell("chattr", "-i", file) }
    }

    /// Makes `directory` unwritable: a read-only bind mount over it as root, mode 0555 otherwise.
    private func makeReadOnly(directory: String) throws -> () -> Void {
        guard runningAsRoot else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
            return { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        }
        let bound = shell("mount", "--bind", directory, directory)
        guard bound.status == 0 else { throw XCTSkip("running as root and cannot bind-mount: \(bound.output)") }
        let remounted = shell("mount", "-o", "remount,bind,ro", directory)
        guard remounted.status == 0 else {
            shell("umount", "-l", directory)
            throw XCTSkip("running as root and cannot remount read-only: \(remounted.output)")
        }
        return { self.shell("umount", "-l", directory) }
    }

    /// Writes `path` until the file system is full.
    private func fill(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x5a, count: 4_096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
