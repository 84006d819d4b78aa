import CSQLite
import PinGuardCore

/// Reads a whole state file into memory in one read transaction: two sequential scans, one per table.
///
/// Every value is untrusted input: a time outside `StoredBounds.times` (`certificateTimes` for a certificate's dates), a count outside
/// `StoredBounds.counts` or a text over `StoredBounds.textBytes` makes the file `.corrupt` (refused whole and
/// left untouched), so no arithmetic on what was read can overflow and no row can take unbounded memory.
enum StateLoader {
    private static let targetColumns = """
        SELECT id, name, renewals, last_renewal, last_key_reused, last_issuer_changed, last_configured
        FROM target ORDER BY id
        """
    private static let chainColumns = """
        SELECT id, target_id, address, leaf_serial, leaf_sha256, leaf_spki_sha256, not_before, not_after,
               issuer_subject, issuer_spki_sha256, issuer_sha256, anchor_spki_sha256, first_seen, last_seen,
               key_first_seen, arrival, key_reused, issuer_changed
        FROM chain ORDER BY id
        """

    /// Loads every target and chain; a file at version 0 (no tables yet) loads as empty.
    static func load(_ connection: SQLiteConnection, version: Int64,
                     lastSeenGranularity: Int64) throws(SQLiteFailure) -> StateMemory {
        var memory = StateMemory(lastSeenGranularity: lastSeenGranularity)
        guard version > 0 else { return memory }
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        let slots = try loadTargets(connection, into: &memory)
        try loadChains(connection, slots: slots, into: &memory)
        return memory
    }

    private static func loadTargets(_ connection: SQLiteConnection,
                                    into memory: inout StateMemory) throws(SQLiteFailure) -> [Int64: Int] {
        let statement = try connection.prepare(targetColumns)
        var slots: [Int64: Int] = [:]
        while try statement.step() {
            let row = StoredBounds(statement, row: "target row \(statement.int64(0))")
            let id = try row.count(0)
            let name = try row.text(1)
            var record = TargetRecord(id: id, name: name, lastConfigured: try row.time(6), needsWrite: false)
            record.summary = RenewalSummary(renewals: Int(try row.count(2)), lastRenewal: try row.optionalTime(3),
                                            lastKeyReused: statement.int64(4) != 0,
                                            lastIssuerChanged: statement.int64(5) != 0)
            memory.insertLoaded(record)
            slots[id] = memory.slot(of: name)
        }
        return slots
    }

    private static func loadChains(_ connection: SQLiteConnection, slots: [Int64: Int],
                                   into memory: inout StateMemory) throws(SQLiteFailure) {
        let statement = try connection.prepare(chainColumns)
        var subjects: [ChainDigest: String] = [:]
        while try statement.step() {
            let row = StoredBounds(statement, row: "chain row \(statement.int64(0))")
            let id = try row.count(0)
            guard let slot = slots[statement.int64(1)] else { throw malformed(id, "names no target") }
            guard let leaf = statement.digest(4), let leafKey = statement.digest(5),
                  let issuerKey = statement.digest(9), let issuer = statement.digest(10) else {
                throw malformed(id, "holds a digest that is not 32 bytes")
            }
            guard let arrival = ChainArrival(column: statement.int64(15), keyReused: statement.int64(16) != 0,
                                             issuerChanged: statement.int64(17) != 0) else {
                throw malformed(id, "has an unknown arrival")
            }
            // Many chains share an issuer: share its subject string instead of decoding it per row.
            let subject: String
            if let shared = subjects[issuer] { subject = shared } else { subject = try row.text(8) }
            subjects[issuer] = subject
            let chain = ServedChain(leafSerial: try row.text(3), leafSHA256: leaf, leafSPKISHA256: leafKey,
                                    notBefore: try row.certificateTime(6), notAfter: try row.certificateTime(7), issuerSubject: subject,
                                    issuerSPKISHA256: issuerKey, issuerSHA256: issuer,
                                    anchorSPKISHA256: statement.digest(11))
            let stored = StoredChain(address: try row.text(2), chain: chain, firstSeen: try row.time(12),
                                     lastSeen: try row.time(13), keyFirstSeen: try row.time(14), arrival: arrival)
            memory.appendLoaded(stored, id: id, toSlot: slot)
        }
    }

    private static func malformed(_ id: Int64, _ what: String) -> SQLiteFailure {
        SQLiteFailure(code: SQLITE_CORRUPT, systemErrno: 0, text: "chain row \(id) \(what)")
    }
}
