import PinGuardCore

/// Writes the store's pending changes to the shared database in one transaction, as upserts by name and
/// identity, so instances sharing the database agree whatever order they write in:
///
/// - a target's renewals and times only grow (`GREATEST`), and the last renewal's flags follow the latest one;
/// - a chain is one row however many replicas observe it: first sight and key first sight keep the earliest
///   time, last sight the latest, and its arrival stays as first written.
///
/// Rows are written in name order in batches, so two writers lock rows in the same order and cannot deadlock
/// each other; on any failure the transaction is rolled back and the caller keeps the changes.
struct DatabaseWriter {
    /// Rows per statement (17 parameters each, within PostgreSQL's 65,535).
    static let batch = 500

    private static let targetSQL = (
        "INSERT INTO pinguard_target AS t (name, renewals, last_renewal, last_key_reused, last_issuer_changed, last_configured) VALUES ",
        """
         ON CONFLICT (name) DO UPDATE SET
            renewals = GREATEST(t.renewals, EXCLUDED.renewals),
            last_key_reused = CASE WHEN EXCLUDED.last_renewal >= COALESCE(t.last_renewal, 0) THEN EXCLUDED.last_key_reused ELSE t.last_key_reused END,
            last_issuer_changed = CASE WHEN EXCLUDED.last_renewal >= COALESCE(t.last_renewal, 0) THEN EXCLUDED.last_issuer_changed ELSE t.last_issuer_changed END,
            last_renewal = GREATEST(t.last_renewal, EXCLUDED.last_renewal),
            last_configured = GREATEST(t.last_configured, EXCLUDED.last_configured)
        """)
    private static let chainSQL = (
        """
        INSERT INTO pinguard_chain AS c (target, address, leaf_sha256, issuer_sha256, leaf_serial, leaf_spki_sha256, not_before,
            not_after, issuer_subject, issuer_spki_sha256, anchor_spki_sha256, first_seen, last_seen, key_first_seen, arrival,
            key_reused, issuer_changed) VALUES 
        """,
        """
         ON CONFLICT (target, address, leaf_sha256, issuer_sha256) DO UPDATE SET
            first_seen = LEAST(c.first_seen, EXCLUDED.first_seen),
            last_seen = GREATEST(c.last_seen, EXCLUDED.last_seen),
            key_first_seen = LEAST(c.key_first_seen, EXCLUDED.key_first_seen)
        """)

    /// A chain seen again: only its `last_seen`, which only grows.
    private static let touchSQL = (
        "UPDATE pinguard_chain AS c SET last_seen = GREATEST(c.last_seen, v.last_seen) FROM (VALUES ",
        """
        ) AS v (target, address, leaf_sha256, issuer_sha256, last_seen)
        WHERE c.target = v.target AND c.address = v.address AND c.leaf_sha256 = v.leaf_sha256
            AND c.issuer_sha256 = v.issuer_sha256
        """)

    let connection: PostgresConnection

    /// Writes deletions, then every dirty target's row, then its new and touched chains.
    func write(_ memory: StateMemory) throws(PostgresFailure) {
        let records = memory.dirtyRecords.sorted { $0.name < $1.name }
        try connection.transaction { () throws(PostgresFailure) in
            for name in memory.deletedTargetNames.sorted() {
                try connection.query("DELETE FROM pinguard_target WHERE name = $1", [name])
            }
            for (target, dropped) in memory.deletedChains {
                try connection.query("DELETE FROM pinguard_chain WHERE target = $1 AND address = $2 AND leaf_sha256 = $3 AND issuer_sha256 = $4",
                                     [target, dropped.address, Self.bytea(dropped.identity.leafSHA256),
                                      Self.bytea(dropped.identity.issuerSHA256)])
            }
            // A target's row is written when it changed or gains a chain (whose row needs it), not for a touch.
            let targets = records.filter { $0.needsWrite || $0.rows.contains { !$0.persisted } }
            try upsert(Self.targetSQL, columns: 6, rows: targets.map(Self.targetRow))
            try upsert(Self.chainSQL, columns: 17, rows: records.flatMap(Self.newChainRows))
            try upsert(Self.touchSQL, columns: 5, rows: records.flatMap(Self.touchRows), casts: ["text", "text", "bytea", "bytea", "bigint"])
        }
    }

    /// Runs `sql` with `rows` as its `VALUES` list, `batch` rows per statement; `casts` type each column (a
    /// `VALUES` list outside an `INSERT` has no column types of its own).
    private func upsert(_ sql: (head: String, tail: String), columns: Int, rows: [[String?]],
                        casts: [String]? = nil) throws(PostgresFailure) {
        var start = 0
        while start < rows.count {
            let slice = rows[start..<min(rows.count, start + Self.batch)]
            let suffixes: [String] = casts.map { $0.map { "::" + $0 } } ?? Array(repeating: "", count: columns)
            let groups = (0..<slice.count).map { (r: Int) -> String in
                let cells = (0..<columns).map { (c: Int) -> String in "$\(r * columns + c + 1)\(suffixes[c])" }
                return "(" + cells.joined(separator: ",") + ")"
            }
            try connection.query(sql.head + groups.joined(separator: ",") + sql.tail, slice.flatMap { $0 })
            start += Self.batch
        }
    }

    private static func targetRow(_ record: TargetRecord) -> [String?] {
        let s = record.summary
        return [record.name, "\(s.renewals)", s.lastRenewal.map { "\($0)" }, flag(s.lastKeyReused), flag(s.lastIssuerChanged),
                "\(record.lastConfigured)"]
    }

    /// The chains of `record` that `include` selects by their row bookkeeping, in identity order.
    private static func chains(_ record: TargetRecord, _ include: (TargetRecord.ChainRow) -> Bool) -> [StoredChain] {
        zip(record.chains, record.rows).filter { include($0.1) }.map(\.0)
            .sorted { ($0.address, $0.chain.leafSHA256, $0.chain.issuerSHA256) < ($1.address, $1.chain.leafSHA256, $1.chain.issuerSHA256) }
    }

    /// The touched chains of `record`: identity and last seen, typed for the `VALUES` list.
    private static func touchRows(_ record: TargetRecord) -> [[String?]] {
        chains(record) { $0.persisted && $0.touchDue }.map { stored in
            [record.name, stored.address, bytea(stored.chain.leafSHA256), bytea(stored.chain.issuerSHA256), "\(stored.lastSeen)"]
        }
    }

    /// The chains of `record` not yet written.
    private static func newChainRows(_ record: TargetRecord) -> [[String?]] {
        chains(record) { !$0.persisted }.map { stored in
                let c = stored.chain
                return [record.name, stored.address, bytea(c.leafSHA256), bytea(c.issuerSHA256), c.leafSerial, bytea(c.leafSPKISHA256),
                        "\(c.notBefore)", "\(c.notAfter)", c.issuerSubject, bytea(c.issuerSPKISHA256), c.anchorSPKISHA256.map(bytea),
                        "\(stored.firstSeen)", "\(stored.lastSeen)", "\(stored.keyFirstSeen)", "\(stored.arrival.column)",
                        flag(stored.arrival.keyReused), flag(stored.arrival.issuerChanged)]
            }
    }

    /// A digest as bytea input: `\x` and 64 hex digits.
    static func bytea(_ digest: ChainDigest) -> String { "\\x" + digest.hex }

    private static func flag(_ value: Bool) -> String { value ? "t" : "f" }
}
