import PinGuardCore

/// The state file's layout and how each version becomes the next.
///
/// `PRAGMA application_id` marks the file as pinguard's, so another application's database is recognised
/// and left alone; `PRAGMA user_version` is the schema version. `migrations[n]` turns version n into n+1
/// inside one transaction that also sets the new version, so a file is always at exactly one version.
/// Adding a version means appending one step here (and reading its columns where they are used).
enum StateSchema {
    /// pinguard's application id: "pgSt".
    static let applicationID: Int32 = 0x7067_5374

    /// The version this pinguard writes and reads.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// `migrations[n]`: the statements that turn version n into n+1.
    static let migrations: [[String]] = [version1, version2]

    /// Version 0 (a new, empty file) to 1: the application id and the two tables.
    ///
    /// Digests are 32-byte blobs. `arrival`: 0 first sight, 1 renewal, 2 address caught up, 3 rollback,
    /// 4 same leaf with another issuing certificate (see `ChainArrival`). A chain's identity (target,
    /// address, leaf and issuer digests) is enforced in memory, where every chain is anyway; an index on it
    /// would cost a fifth of the file and of the insert time, so the only index serves deleting a target.
    private static let version1 = [
        "PRAGMA application_id = \(applicationID)",
        """
        CREATE TABLE target (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            renewals INTEGER NOT NULL DEFAULT 0,
            last_renewal INTEGER,
            last_key_reused INTEGER NOT NULL DEFAULT 0,
            last_issuer_changed INTEGER NOT NULL DEFAULT 0,
            last_configured INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE chain (
            id INTEGER PRIMARY KEY,
            target_id INTEGER NOT NULL REFERENCES target(id),
            address TEXT NOT NULL,
            leaf_serial TEXT NOT NULL,
            leaf_sha256 BLOB NOT NULL,
            leaf_spki_sha256 BLOB NOT NULL,
            not_before INTEGER NOT NULL,
            not_after INTEGER NOT NULL,
            issuer_subject TEXT NOT NULL,
            issuer_spki_sha256 BLOB NOT NULL,
            issuer_sha256 BLOB NOT NULL,
            anchor_spki_sha256 BLOB,
            first_seen INTEGER NOT NULL,
            last_seen INTEGER NOT NULL,
            key_first_seen INTEGER NOT NULL,
            arrival INTEGER NOT NULL,
            key_reused INTEGER NOT NULL DEFAULT 0,
            issuer_changed INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX chain_target ON chain (target_id)",
    ]

    /// Version 1 to 2: documents fetched from the authorities (renewal information, CRLs, log lists), kept
    /// so a restart does not fetch again what is still fresh (`StateStore+Documents`). Times are Unix seconds.
    private static let version2 = [
        """
        CREATE TABLE fetched_document (
            url TEXT PRIMARY KEY,
            body BLOB NOT NULL,
            fetched_at REAL NOT NULL,
            fresh_until REAL NOT NULL
        )
        """,
    ]

    /// Brings a file at `version` to `currentVersion`, one transaction per step.
    static func migrate(_ connection: SQLiteConnection, from version: Int64) throws(SQLiteFailure) {
        for step in Int(version)..<migrations.count {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                for sql in migrations[step] { try connection.execute(sql) }
                try connection.execute("PRAGMA user_version = \(step + 1)")
                try connection.execute("COMMIT")
            } catch {
                if connection.inTransaction { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Settings of the writer's connection: WAL so readers never block it, `synchronous=NORMAL` (durable
    /// at checkpoints, safe against corruption in WAL), a WAL file cut back to 16 MiB after checkpoints.
    static func configureWriter(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute("PRAGMA journal_size_limit = 16777216")
        try connection.execute("PRAGMA cache_size = -8192")
    }
}
