import CSQLite
import Foundation
import PinGuardState
import XCTest
import PinGuardCore

/// A digest that differs for every `n` and `family`.
func testDigest(_ n: UInt64, family: UInt64 = 0) -> ChainDigest {
    ChainDigest(words: (family, n, ~n, 0x5eed))
}

/// A served chain whose leaf is `leaf` (certificate digest) with key `key`, issued by `issuer` (certificate
/// digest) with issuer key `issuerKey` (the issuer number when nil).
func testChain(leaf: UInt64, key: UInt64? = nil, notBefore: Int64 = 1_000, issuer: UInt64 = 1,
               issuerKey: UInt64? = nil) -> ServedChain {
    ServedChain(leafSerial: String(leaf, radix: 16, uppercase: true), leafSHA256: testDigest(leaf, family: 1),
                leafSPKISHA256: testDigest(key ?? leaf, family: 2), notBefore: notBefore, notAfter: notBefore + 7_776_000,
                issuerSubject: "CN=Test Issuing CA \(issuer),O=Example", issuerSPKISHA256: testDigest(issuerKey ?? issuer, family: 3),
                issuerSHA256: testDigest(issuer, family: 4), anchorSPKISHA256: testDigest(0, family: 5))
}

/// A recorded chain for classifier tables.
func recorded(_ chain: ServedChain, at address: String = "a1", firstSeen: Int64 = 100,
              lastSeen: Int64? = nil) -> StoredChain {
    StoredChain(address: address, chain: chain, firstSeen: firstSeen, lastSeen: lastSeen ?? firstSeen,
                keyFirstSeen: firstSeen, arrival: .firstSight)
}

/// Whether the tests run as root, where file modes do not stop writes.
let runningAsRoot = geteuid() == 0

extension XCTestCase {
    /// A new empty directory, removed after the test.
    func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pg-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Runs a command; returns its exit status and combined output.
    @discardableResult
    func shell(_ arguments: String...) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Asserts that `body` throws a `StateError` with `code` whose message names `path`.
    func assertStateError<T>(_ code: StateError.Code, path: String, file: StaticString = #filePath, line: UInt = #line,
                             _ body: () throws(StateError) -> T) {
        do {
            _ = try body()
            XCTFail("expected \(code), got success", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains("\"\(path)\""), error.message, file: file, line: line)
            XCTAssertFalse(error.message.contains("\n"), file: file, line: line)
        }
    }

    /// Observes `chains` (target, address, chain) in one round at `now` and commits it.
    @discardableResult
    func commitRound(_ store: StateStore, now: Int64, _ chains: [(String, String, ServedChain)]) throws -> StateCommit {
        let round = store.beginRound(now: now)
        for (target, address, chain) in chains { round.observe(target: target, address: address, chain: chain) }
        return try store.commit(round)
    }
}

/// A raw SQLite connection for looking at files behind the store's back.
final class RawSQLite {
    private var handle: OpaquePointer?

    init(_ path: String, readOnly: Bool = true) throws {
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            defer { sqlite3_close_v2(handle) }
            throw NSError(domain: "sqlite", code: 1, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(handle))])
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` and returns every row's first column as text.
    @discardableResult
    func query(_ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw NSError(domain: "sqlite", code: 2, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(handle))])
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else {
                throw NSError(domain: "sqlite", code: Int(rc), userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(handle))])
            }
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
    }
}
