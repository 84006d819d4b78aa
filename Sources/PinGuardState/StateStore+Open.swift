#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PinGuardCore
import PinGuardFiles

extension StateStore {
    /// Opens the state file at `path` and loads it into memory.
    ///
    /// A writer (`readOnly: false`) takes an exclusive lock on the file (`.locked` if another pinguard
    /// holds it), creates the file if missing, migrates it to the current schema and switches it to WAL.
    /// A reader takes no lock, opens SQLite read-only and never blocks the writer; it reads a consistent
    /// snapshot and holds no connection afterwards. Either way, a file that is not pinguard's (`.foreign`),
    /// fails its integrity check (`.corrupt`) or has a newer schema (`.newerSchema`) is refused and never
    /// modified.
    public static func open(path: String, readOnly: Bool,
                            lastSeenGranularity: Int64 = 3600) throws(StateError) -> StateStore {
        readOnly ? try openReader(path, lastSeenGranularity) : try openWriter(path, lastSeenGranularity)
    }

    /// Checks the state file at `path` as a writer would find it at start, without creating, locking or
    /// changing anything: nil when `serve` can use it (a missing file is created, an older schema migrated),
    /// else why it cannot (the cause `state_unavailable` would name).
    public static func check(path: String) -> StateError? {
        do {
            try openReader(path, 3600).close()
            return nil
        } catch {
            return error.code == .notFound || error.code == .olderSchema ? nil : error
        }
    }

    /// A store that lives only in memory: the same rounds and queries, with commits that write nothing.
    public static func inMemory(lastSeenGranularity: Int64 = 3600) -> StateStore {
        StateStore(path: nil, isReadOnly: false, memory: StateMemory(lastSeenGranularity: lastSeenGranularity),
                   connection: nil, fileLock: nil)
    }

    private static func openWriter(_ path: String, _ granularity: Int64) throws(StateError) -> StateStore {
        let fileLock = try StateFileLock.acquire(path: path)
        var version: Int64?
        if try fileLock.header() == .pinguard {
            do {
                version = try validateBeforeConnecting(path)
            } catch where error.code == .readOnly {
                // A hot journal or WAL index only a writer may recover; the header showed the file is ours.
                version = nil
            }
        }
        let connection = try connect(path, readOnly: false)
        if version == nil { version = try validate(connection, path: path) }
        try prepareWriter(connection, from: version ?? 0, path: path)
        let memory = try load(connection, version: StateSchema.currentVersion, path: path, granularity)
        return StateStore(path: path, isReadOnly: false, memory: memory, connection: connection, fileLock: fileLock)
    }

    private static func openReader(_ path: String, _ granularity: Int64) throws(StateError) -> StateStore {
        // SQLite opens by name and would block on a FIFO: the file must be a regular one first.
        do { try RegularFile.check(path) } catch { throw StateError(error, path: path) }
        let version = try validateBeforeConnecting(path)
        guard version == 0 || version == StateSchema.currentVersion else {
            throw StateError(.olderSchema, path: path, cause: "schema version \(version) is older than "
                             + "\(StateSchema.currentVersion); open it once for writing to migrate it")
        }
        let memory = try load(connect(path, readOnly: true), version: version, path: path, granularity)
        return StateStore(path: path, isReadOnly: true, memory: memory, connection: nil, fileLock: nil)
    }

    /// Validates the file before any connection that could leave something beside it. With no `-wal` or
    /// `-journal` file (closed cleanly, no writer running, nothing to recover) it uses an immutable
    /// connection, which creates no `-wal` or `-shm` next to a file that may turn out to be damaged; else a
    /// plain read-only one. If a writer started meanwhile (a `-wal` appeared), a failed immutable check is
    /// repeated the plain way.
    private static func validateBeforeConnecting(_ path: String) throws(StateError) -> Int64 {
        let quiet = access(path + "-wal", F_OK) != 0 && access(path + "-journal", F_OK) != 0
        do {
            return try validate(connect(path, readOnly: true, immutable: quiet), path: path)
        } catch {
            guard quiet, access(path + "-wal", F_OK) == 0 else { throw error }
            return try validate(connect(path, readOnly: true), path: path)
        }
    }

    /// Fails with `.readOnly` unless the file and its directory can be written now: a file made read-only
    /// (or a directory mounted read-only) while the store is open is honoured, not written through the
    /// descriptor opened before.
    static func checkWritable(_ path: String) throws(StateError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        for (file, what) in [(path, "the file"), (directory.isEmpty ? "/" : directory, "its directory")]
        where access(file, W_OK) != 0 {
            let number = errno
            throw StateError(number == ENOENT ? .notFound : .readOnly, path: path,
                             cause: "\(what) cannot be written: \(String(cString: strerror(number)))")
        }
    }

    /// A new read-write connection to a file this store already validated and holds the lock on.
    static func reconnect(_ path: String) throws(StateError) -> SQLiteConnection {
        let connection = try connect(path, readOnly: false)
        guard !connection.isReadOnly else {
            throw StateError(.readOnly, path: path, cause: "SQLite could open it only read-only")
        }
        do {
            try StateSchema.configureWriter(connection)
        } catch {
            throw StateError(error, path: path, doing: "configuring")
        }
        return connection
    }

    private static func connect(_ path: String, readOnly: Bool,
                                immutable: Bool = false) throws(StateError) -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: path, readOnly: readOnly, immutable: immutable)
        } catch {
            throw StateError(error, path: path, doing: "opening")
        }
    }

    /// Checks the application id, the schema version and `PRAGMA quick_check`; returns the version.
    /// An SQLite file with no id, no version and nothing in it is empty (version 0).
    private static func validate(_ connection: SQLiteConnection, path: String) throws(StateError) -> Int64 {
        let facts: (id: Int64, version: Int64, objects: Int64)
        do {
            facts = (try connection.integer("PRAGMA application_id"), try connection.integer("PRAGMA user_version"),
                     try connection.integer("SELECT count(*) FROM sqlite_schema"))
        } catch {
            throw StateError(error, path: path, doing: "reading the header")
        }
        if facts.id == 0 && facts.version == 0 && facts.objects == 0 { return 0 }
        guard facts.id == Int64(StateSchema.applicationID) else {
            throw StateError(.foreign, path: path, cause: "another application's SQLite database "
                             + "(application id \(facts.id), pinguard's is \(StateSchema.applicationID))")
        }
        guard facts.version >= 1 || (facts.version == 0 && facts.objects == 0) else {
            throw StateError(.corrupt, path: path, cause: "schema version \(facts.version) is not a version pinguard "
                             + "writes (1 to \(StateSchema.currentVersion))")
        }
        guard facts.version <= StateSchema.currentVersion else {
            throw StateError(.newerSchema, path: path, cause: "schema version \(facts.version) is newer than "
                             + "this pinguard's \(StateSchema.currentVersion)")
        }
        try checkIntegrity(connection, path: path)
        return facts.version
    }

    private static func checkIntegrity(_ connection: SQLiteConnection, path: String) throws(StateError) {
        let rows: [String]
        do {
            rows = try connection.texts("PRAGMA quick_check")
        } catch {
            // The header was SQLite's and pinguard's, so "not a database" from here on means damage.
            let mapped = StateError(error, path: path, doing: "integrity check failed")
            guard mapped.code == .foreign else { throw mapped }
            throw StateError(.corrupt, path: path, cause: "integrity check failed: \(error.text)")
        }
        guard rows == ["ok"] else {
            let first = rows.first.map { $0.count > 120 ? String($0.prefix(120)) + "..." : $0 } ?? "no result"
            throw StateError(.corrupt, path: path, cause: "integrity check failed: \(first)")
        }
    }

    /// Migrates a writer's file from `version` and switches it to WAL; a file SQLite opened read-only
    /// (read-only file or directory) is accepted only if it needs no migration.
    private static func prepareWriter(_ connection: SQLiteConnection, from version: Int64,
                                      path: String) throws(StateError) {
        if connection.isReadOnly {
            guard version == StateSchema.currentVersion else {
                throw StateError(.readOnly, path: path, cause: "cannot be written to create or migrate the schema")
            }
            do {
                _ = try connection.integer("SELECT count(*) FROM sqlite_schema")
            } catch {
                throw StateError(.readOnly, path: path, cause: "cannot be written, nor read without creating "
                                 + "SQLite's -wal and -shm files: \(error.text)")
            }
            return
        }
        do {
            try StateSchema.migrate(connection, from: version)
            try StateSchema.configureWriter(connection)
        } catch {
            throw StateError(error, path: path, doing: "migrating from schema version \(version)")
        }
    }

    private static func load(_ connection: SQLiteConnection, version: Int64, path: String,
                             _ granularity: Int64) throws(StateError) -> StateMemory {
        do {
            return try StateLoader.load(connection, version: version, lastSeenGranularity: granularity)
        } catch {
            throw StateError(error, path: path, doing: "loading")
        }
    }
}
