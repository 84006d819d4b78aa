import CSQLite
import PinGuardCore

/// A prepared SQLite statement, finalized in `deinit`. Binding indices start at 1, columns at 0.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    /// Binds text (copied by SQLite).
    func bind(_ value: String, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_text(statement, index, value, -1, pg_sqlite_transient()))
    }

    /// Binds an optional integer, NULL for nil.
    func bind(_ value: Int64?, at index: Int32) throws(SQLiteFailure) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try bind(value, at: index)
    }

    /// Binds a digest as a 32-byte blob, or NULL for nil.
    func bind(_ digest: ChainDigest?, at index: Int32) throws(SQLiteFailure) {
        guard let digest else { return try check(sqlite3_bind_null(statement, index)) }
        var bigEndian = (digest.words.0.bigEndian, digest.words.1.bigEndian, digest.words.2.bigEndian,
                         digest.words.3.bigEndian)
        let rc = withUnsafeBytes(of: &bigEndian) {
            sqlite3_bind_blob(statement, index, $0.baseAddress, 32, pg_sqlite_transient())
        }
        try check(rc)
    }

    /// Binds bytes as a blob (copied by SQLite).
    func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteFailure) {
        let rc = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64($0.count), pg_sqlite_transient()) }
        try check(rc)
    }

    /// Binds a floating-point number.
    func bind(_ value: Double, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_double(statement, index, value))
    }

    /// Steps once: true when a row is ready, false when the statement is done.
    func step() throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let failure = connection.failure(rc)
        sqlite3_reset(statement)
        throw failure
    }

    /// Runs the statement to completion and resets it for the next use, bindings cleared.
    func run() throws(SQLiteFailure) {
        defer { reset() }
        while try step() {}
    }

    /// Resets the statement and clears its bindings.
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    /// Column `index` as an integer (0 for NULL).
    func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// Column `index` as an integer, nil for NULL.
    func optionalInt64(_ index: Int32) -> Int64? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : int64(index)
    }

    /// The size in bytes of column `index` as text or blob (0 for NULL).
    func byteCount(_ index: Int32) -> Int {
        Int(sqlite3_column_bytes(statement, index))
    }

    /// Column `index` as text ("" for NULL).
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (empty for NULL).
    func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, index))
        guard count > 0, let raw = sqlite3_column_blob(statement, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: count))
    }

    /// Column `index` as a floating-point number; nil unless it holds a number (a real or an integer).
    func number(_ index: Int32) -> Double? {
        let type = sqlite3_column_type(statement, index)
        guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else { return nil }
        return sqlite3_column_double(statement, index)
    }

    /// Column `index` as a digest; nil for NULL or a blob that is not 32 bytes.
    func digest(_ index: Int32) -> ChainDigest? {
        guard sqlite3_column_bytes(statement, index) == 32, let raw = sqlite3_column_blob(statement, index) else {
            return nil
        }
        let bytes = UnsafeRawPointer(raw)
        return ChainDigest(words: (bytes.loadUnaligned(as: UInt64.self).bigEndian,
                                   bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian,
                                   bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).bigEndian,
                                   bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self).bigEndian))
    }

    private func check(_ rc: Int32) throws(SQLiteFailure) {
        guard rc == SQLITE_OK else { throw connection.failure(rc) }
    }
}
