import PinGuardCore

/// The shared state database's layout and how each version becomes the next; the SQLite file's is
/// `StateSchema`. Tables are prefixed `pinguard_` so the database may hold other applications' tables.
///
/// `pinguard_schema` holds the version. `migrations[n]` turns version n into n+1 in one transaction that also
/// sets the new version, under an advisory lock, so instances starting together migrate once.
///
/// A chain's identity (target, address, leaf and issuer digests) is the primary key: two replicas that observe
/// the same chain write one row, and a chain's `seq` keeps the order chains were first written in.
enum DatabaseSchema {
    /// The version this pinguard writes and reads.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// The advisory lock every instance takes while it checks or migrates the schema.
    static let lockKey = "7067537400000001"

    /// `migrations[n]`: the statements that turn version n into n+1.
    static let migrations: [[String]] = [version1]

    private static let version1 = [
        """
        CREATE TABLE pinguard_target (
            name text PRIMARY KEY,
            renewals bigint NOT NULL DEFAULT 0,
            last_renewal bigint,
            last_key_reused boolean NOT NULL DEFAULT false,
            last_issuer_changed boolean NOT NULL DEFAULT false,
            last_configured bigint NOT NULL
        )
        """,
        """
        CREATE TABLE pinguard_chain (
            seq bigint GENERATED ALWAYS AS IDENTITY,
            target text NOT NULL REFERENCES pinguard_target (name) ON DELETE CASCADE,
            address text NOT NULL,
            leaf_sha256 bytea NOT NULL,
            issuer_sha256 bytea NOT NULL,
            leaf_serial text NOT NULL,
            leaf_spki_sha256 bytea NOT NULL,
            not_before bigint NOT NULL,
            not_after bigint NOT NULL,
            issuer_subject text NOT NULL,
            issuer_spki_sha256 bytea NOT NULL,
            anchor_spki_sha256 bytea,
            first_seen bigint NOT NULL,
            last_seen bigint NOT NULL,
            key_first_seen bigint NOT NULL,
            arrival smallint NOT NULL,
            key_reused boolean NOT NULL,
            issuer_changed boolean NOT NULL,
            PRIMARY KEY (target, address, leaf_sha256, issuer_sha256)
        )
        """,
        """
        CREATE TABLE pinguard_document (
            url text PRIMARY KEY,
            body bytea NOT NULL,
            fetched_at double precision NOT NULL,
            fresh_until double precision NOT NULL
        )
        """,
    ]

    /// The database's schema version: 0 when pinguard has never written there.
    static func version(_ connection: PostgresConnection) throws(PostgresFailure) -> Int64 {
        let exists = try connection.query("SELECT to_regclass('pinguard_schema') IS NOT NULL")
        guard exists.text(0, 0) == "t" else { return 0 }
        let rows = try connection.query("SELECT version FROM pinguard_schema")
        guard rows.count == 1, let text = rows.text(0, 0), let version = Int64(text), version >= 1 else {
            throw PostgresFailure(sqlState: "XX001", text: "pinguard_schema holds \(rows.count) rows, not one version",
                                  connectionLost: false)
        }
        return version
    }

    /// Brings the database to `currentVersion` (a writer) or checks it is there (a reader); returns the version
    /// found. A newer version is refused, never written.
    static func prepare(_ connection: PostgresConnection, readOnly: Bool) throws(PostgresFailure) -> Int64 {
        try connection.transaction { () throws(PostgresFailure) -> Int64 in
            try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
            let found = try version(connection)
            guard !readOnly, found < currentVersion else { return found }
            if found == 0 { try connection.query("CREATE TABLE pinguard_schema (version integer NOT NULL)") }
            for step in Int(found)..<migrations.count {
                for sql in migrations[step] { try connection.query(sql) }
            }
            try connection.query("DELETE FROM pinguard_schema")
            try connection.query("INSERT INTO pinguard_schema (version) VALUES ($1)", ["\(currentVersion)"])
            return found
        }
    }
}
