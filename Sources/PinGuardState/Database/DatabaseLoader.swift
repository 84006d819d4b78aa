import PinGuardCore

/// Reads the shared state database into memory in one read-only transaction: the targets this instance keeps
/// (its shard's at start, the targets a reload gave it later), then their chains in the order they were first
/// written.
///
/// Every value is untrusted input, held to the SQLite file's bounds (`StoredBounds`): a value out of them makes
/// the database `.corrupt`, refused whole and left untouched, naming the row.
enum DatabaseLoader {
    private static let targetColumns = """
        SELECT name, renewals, last_renewal, last_key_reused, last_issuer_changed, last_configured
        FROM pinguard_target ORDER BY name
        """
    private static let chainColumns = """
        SELECT target, address, leaf_serial, leaf_sha256, leaf_spki_sha256, not_before, not_after, issuer_subject,
               issuer_spki_sha256, issuer_sha256, anchor_spki_sha256, first_seen, last_seen, key_first_seen, arrival,
               key_reused, issuer_changed
        FROM pinguard_chain ORDER BY seq
        """

    /// Adds to `memory` the targets `keep` accepts that it does not hold yet, with their chains.
    static func load(_ connection: PostgresConnection, into memory: inout StateMemory,
                     keep: (String) -> Bool) throws(PostgresFailure) {
        var loaded = memory
        try connection.transaction { () throws(PostgresFailure) in
            try connection.query("SET TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ")
            let added = try loadTargets(connection.query(targetColumns), keep: keep, into: &loaded)
            try loadChains(connection.query(chainColumns), of: added, into: &loaded)
        }
        memory = loaded
    }

    /// Loads the target rows `keep` accepts that `memory` does not hold; returns their names.
    private static func loadTargets(_ rows: PostgresRows, keep: (String) -> Bool,
                                    into memory: inout StateMemory) throws(PostgresFailure) -> Set<String> {
        var added: Set<String> = []
        for index in 0..<rows.count {
            let row = DatabaseRow(rows: rows, index: index, table: "pinguard_target")
            let name = try row.text(0)
            guard keep(name), memory[name] == nil else { continue }
            added.insert(name)
            var record = TargetRecord(id: memory.nextTargetID, name: name, lastConfigured: try row.time(5), needsWrite: false)
            record.summary = RenewalSummary(renewals: Int(try row.count(1)), lastRenewal: try row.optionalTime(2),
                                            lastKeyReused: try row.flag(3), lastIssuerChanged: try row.flag(4))
            memory.insertLoaded(record)
        }
        return added
    }

    private static func loadChains(_ rows: PostgresRows, of targets: Set<String>,
                                   into memory: inout StateMemory) throws(PostgresFailure) {
        for index in 0..<rows.count {
            let row = DatabaseRow(rows: rows, index: index, table: "pinguard_chain")
            let target = try row.text(0)
            guard targets.contains(target), let slot = memory.slot(of: target) else { continue }
            guard let arrival = ChainArrival(column: try row.count(14), keyReused: try row.flag(15),
                                             issuerChanged: try row.flag(16)) else {
                throw row.malformed("has an unknown arrival")
            }
            let chain = ServedChain(leafSerial: try row.text(2), leafSHA256: try row.digest(3), leafSPKISHA256: try row.digest(4),
                                    notBefore: try row.certificateTime(5), notAfter: try row.certificateTime(6),
                                    issuerSubject: try row.text(7), issuerSPKISHA256: try row.digest(8),
                                    issuerSHA256: try row.digest(9), anchorSPKISHA256: try row.optionalDigest(10))
            let stored = StoredChain(address: try row.text(1), chain: chain, firstSeen: try row.time(11),
                                     lastSeen: try row.time(12), keyFirstSeen: try row.time(13), arrival: arrival)
            memory.appendLoaded(stored, id: memory.nextChainID, toSlot: slot)
        }
    }
}

/// One row of a result read back from the database, every value checked against `StoredBounds`.
struct DatabaseRow {
    let rows: PostgresRows
    let index: Int
    let table: String

    func text(_ column: Int) throws(PostgresFailure) -> String {
        guard rows.byteCount(index, column) <= StoredBounds.textBytes else {
            throw malformed("holds \(rows.byteCount(index, column)) bytes of text in column \(column + 1) (at most \(StoredBounds.textBytes))")
        }
        guard let value = rows.text(index, column) else { throw malformed("holds NULL in column \(column + 1)") }
        return value
    }

    func time(_ column: Int) throws(PostgresFailure) -> Int64 { try bounded(column, StoredBounds.times, "a time") }

    func certificateTime(_ column: Int) throws(PostgresFailure) -> Int64 {
        try bounded(column, StoredBounds.certificateTimes, "a certificate date")
    }

    func count(_ column: Int) throws(PostgresFailure) -> Int64 { try bounded(column, StoredBounds.counts, "a count") }

    func optionalTime(_ column: Int) throws(PostgresFailure) -> Int64? {
        rows.text(index, column) == nil ? nil : try time(column)
    }

    func flag(_ column: Int) throws(PostgresFailure) -> Bool {
        switch try text(column) {
        case "t": return true
        case "f": return false
        case let other: throw malformed("holds \(EchoedInput.quoted(other)) in column \(column + 1), not a boolean")
        }
    }

    /// A bytea column of exactly 32 bytes, in PostgreSQL's hex output (`\x` and 64 digits).
    func digest(_ column: Int) throws(PostgresFailure) -> ChainDigest {
        let value = try text(column)
        guard value.hasPrefix("\\x"), let digest = ChainDigest(hex: String(value.dropFirst(2))) else {
            throw malformed("holds a digest that is not 32 bytes in column \(column + 1)")
        }
        return digest
    }

    func optionalDigest(_ column: Int) throws(PostgresFailure) -> ChainDigest? {
        rows.text(index, column) == nil ? nil : try digest(column)
    }

    func malformed(_ what: String) -> PostgresFailure {
        PostgresFailure(sqlState: "XX001", text: "\(table) row \(index + 1) \(what)", connectionLost: false)
    }

    private func bounded(_ column: Int, _ range: ClosedRange<Int64>, _ what: String) throws(PostgresFailure) -> Int64 {
        let raw = try text(column)
        guard let value = Int64(raw), range.contains(value) else {
            throw malformed("holds \(EchoedInput.quoted(raw)) in column \(column + 1), not \(what) pinguard writes "
                            + "(\(range.lowerBound) to \(range.upperBound))")
        }
        return value
    }
}
