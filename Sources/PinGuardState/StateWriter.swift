import PinGuardCore

/// Writes the store's pending changes in one transaction with prepared statements; on any failure the
/// transaction is rolled back and the caller keeps the changes for the next attempt.
struct StateWriter {
    private static let upsertTargetSQL = """
        INSERT INTO target (id, name, renewals, last_renewal, last_key_reused, last_issuer_changed, last_configured)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (id) DO UPDATE SET renewals = ?3, last_renewal = ?4, last_key_reused = ?5,
            last_issuer_changed = ?6, last_configured = ?7
        """
    private static let insertChainSQL = """
        INSERT OR REPLACE INTO chain (id, target_id, address, leaf_serial, leaf_sha256, leaf_spki_sha256,
            not_before, not_after, issuer_subject, issuer_spki_sha256, issuer_sha256, anchor_spki_sha256,
            first_seen, last_seen, key_first_seen, arrival, key_reused, issuer_changed)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
        """

    private let connection: SQLiteConnection
    private let upsertTarget: SQLiteStatement
    private let insertChain: SQLiteStatement
    private let touchChain: SQLiteStatement
    private let deleteChain: SQLiteStatement
    private let deleteTargetChains: SQLiteStatement
    private let deleteTarget: SQLiteStatement

    /// Takes the connection's prepared statements (prepared once per connection).
    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        self.connection = connection
        upsertTarget = try connection.cached(Self.upsertTargetSQL)
        insertChain = try connection.cached(Self.insertChainSQL)
        touchChain = try connection.cached("UPDATE chain SET last_seen = ?2 WHERE id = ?1")
        deleteChain = try connection.cached("DELETE FROM chain WHERE id = ?1")
        deleteTargetChains = try connection.cached("DELETE FROM chain WHERE target_id = ?1")
        deleteTarget = try connection.cached("DELETE FROM target WHERE id = ?1")
    }

    /// Writes deletions first (so a re-added target's name is free), then dirty targets in row order.
    func write(_ memory: StateMemory) throws(SQLiteFailure) {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try deleteRows(memory)
            for record in memory.dirtyRecords { try writeTarget(record) }
            try connection.execute("COMMIT")
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func deleteRows(_ memory: StateMemory) throws(SQLiteFailure) {
        for id in memory.deletedChainIDs.sorted() {
            try run(deleteChain) { s throws(SQLiteFailure) in try s.bind(id, at: 1) }
        }
        for id in memory.deletedTargetIDs.sorted() {
            try run(deleteTargetChains) { s throws(SQLiteFailure) in try s.bind(id, at: 1) }
            try run(deleteTarget) { s throws(SQLiteFailure) in try s.bind(id, at: 1) }
        }
    }

    private func writeTarget(_ record: TargetRecord) throws(SQLiteFailure) {
        if record.needsWrite {
            try run(upsertTarget) { s throws(SQLiteFailure) in
                try s.bind(record.id, at: 1)
                try s.bind(record.name, at: 2)
                try s.bind(Int64(record.summary.renewals), at: 3)
                try s.bind(record.summary.lastRenewal, at: 4)
                try s.bind(Int64(record.summary.lastKeyReused ? 1 : 0), at: 5)
                try s.bind(Int64(record.summary.lastIssuerChanged ? 1 : 0), at: 6)
                try s.bind(record.lastConfigured, at: 7)
            }
        }
        for (chain, row) in zip(record.chains, record.rows) {
            if !row.persisted {
                try run(insertChain) { s throws(SQLiteFailure) in try Self.bindChain(chain, row.id, record.id, s) }
            } else if row.touchDue {
                try run(touchChain) { s throws(SQLiteFailure) in
                    try s.bind(row.id, at: 1)
                    try s.bind(chain.lastSeen, at: 2)
                }
            }
        }
    }

    private static func bindChain(_ stored: StoredChain, _ id: Int64, _ targetID: Int64,
                                  _ s: SQLiteStatement) throws(SQLiteFailure) {
        let chain = stored.chain
        try s.bind(id, at: 1)
        try s.bind(targetID, at: 2)
        try s.bind(stored.address, at: 3)
        try s.bind(chain.leafSerial, at: 4)
        try s.bind(chain.leafSHA256, at: 5)
        try s.bind(chain.leafSPKISHA256, at: 6)
        try s.bind(chain.notBefore, at: 7)
        try s.bind(chain.notAfter, at: 8)
        try s.bind(chain.issuerSubject, at: 9)
        try s.bind(chain.issuerSPKISHA256, at: 10)
        try s.bind(chain.issuerSHA256, at: 11)
        try s.bind(chain.anchorSPKISHA256, at: 12)
        try s.bind(stored.firstSeen, at: 13)
        try s.bind(stored.lastSeen, at: 14)
        try s.bind(stored.keyFirstSeen, at: 15)
        try s.bind(stored.arrival.column, at: 16)
        try s.bind(Int64(stored.arrival.keyReused ? 1 : 0), at: 17)
        try s.bind(Int64(stored.arrival.issuerChanged ? 1 : 0), at: 18)
    }

    /// Binds and runs one statement, leaving it reset for the next row.
    private func run(_ statement: SQLiteStatement,
                     _ bind: (SQLiteStatement) throws(SQLiteFailure) -> Void) throws(SQLiteFailure) {
        do {
            try bind(statement)
            try statement.run()
        } catch {
            statement.reset()
            throw error
        }
    }
}
