import CSQLite
import PinGuardCore

/// What SQLite reported when a call failed: its extended result code, the operating system's errno
/// behind it (0 when none), and SQLite's own text.
struct SQLiteFailure: Error {
    /// The extended result code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, ...).
    let code: Int32
    /// The errno of the system call that failed, 0 when none did.
    let systemErrno: Int32
    /// SQLite's message.
    let text: String

    /// The primary result code (`SQLITE_IOERR` for `SQLITE_IOERR_WRITE`).
    var primary: Int32 { code & 0xff }
}

/// One SQLite connection, owned here and closed in `deinit`; nothing outside this target sees a C type.
///
/// Not thread-safe on its own: the store serialises every use behind its lock.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path`; read-only connections never write the file, read-write ones create it if `create`.
    /// An `immutable` connection (read-only) takes no locks and creates no `-wal` or `-shm` file: only for
    /// a file no one writes while it is open.
    init(path: String, readOnly: Bool, create: Bool = false, immutable: Bool = false) throws(SQLiteFailure) {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        if readOnly || immutable {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        }
        if immutable { flags |= SQLITE_OPEN_URI }
        let rc = sqlite3_open_v2(immutable ? Self.immutableURI(path) : path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let failure = SQLiteFailure(code: rc, systemErrno: db.map { sqlite3_system_errno($0) } ?? 0,
                                        text: db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")
            sqlite3_close_v2(db)
            throw failure
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
    }

    /// `path` as a `file:` URI with `immutable=1`, every byte outside the unreserved set percent-encoded.
    private static func immutableURI(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var uri = Array("file:".utf8)
        for byte in path.utf8 {
            guard !unreserved.contains(byte) else { uri.append(byte); continue }
            uri += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        }
        return String(decoding: uri, as: UTF8.self) + "?immutable=1"
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether SQLite opened the file read-only (asked to, or because the file could not be written).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether a transaction is open.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(SQLiteFailure) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// Prepares a statement for one use.
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        return SQLiteStatement(statement, connection: self)
    }

    /// A prepared statement kept for the connection's lifetime: each commit reuses it.
    func cached(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql` as an integer; 0 when there is no row.
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The first column of every row of `sql` as text.
    func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
        let statement = try prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }

    /// The failure behind result code `rc`, with the connection's errno and message.
    func failure(_ rc: Int32) -> SQLiteFailure {
        let extended = sqlite3_extended_errcode(handle)
        return SQLiteFailure(code: extended & 0xff == rc & 0xff ? extended : rc,
                             systemErrno: sqlite3_system_errno(handle), text: String(cString: sqlite3_errmsg(handle)))
    }
}
