#if canImport(Glibc)
import Glibc
#endif
import PinGuardCore
import PinGuardFiles

/// Fetched documents (ACME renewal information, CRLs, log lists) in the state file's `fetched_document`
/// table, so a restart does not fetch again what is still fresh. Each `keep` is its own small transaction;
/// the table stays within `FetchedDocumentBounds` (the least recently fetched rows go first). A row read
/// back is untrusted: one that fails `FetchedDocumentBounds.isSound` is ignored, as if never kept. A store
/// without a writable file keeps nothing; a read-only one finds what the file holds, an in-memory or closed one
/// nothing.
extension StateStore: FetchedDocumentStore {
    /// The last good copy of `url` in the file, if any. A read-only store (which holds no connection) reads it
    /// through a connection of its own for the lookup, so `plan` and `lint` find what `serve` kept.
    public func document(url: String) -> CachedDocument? {
        lock.lock()
        defer { lock.unlock() }
        if let database { return isClosed ? nil : database.document(url: url) }
        if let connection = documentConnection { return try? Self.document(url: url, in: connection) }
        // As at open: an immutable connection leaves nothing beside a file no writer has open.
        let quiet = path.map { access($0 + "-wal", F_OK) != 0 && access($0 + "-journal", F_OK) != 0 } ?? false
        guard isReadOnly, !isClosed, let path, (try? RegularFile.check(path)) != nil,
              let reader = try? SQLiteConnection(path: path, readOnly: true, immutable: quiet) else { return nil }
        return try? Self.document(url: url, in: reader)
    }

    /// The row of `url` in `connection`'s table, when sound.
    private static func document(url: String, in connection: SQLiteConnection) throws(SQLiteFailure) -> CachedDocument? {
        let s = try connection.cached("SELECT body, fetched_at, fresh_until FROM fetched_document WHERE url = ?1")
        defer { s.reset() }
        try s.bind(url, at: 1)
        guard try s.step(), s.byteCount(0) <= FetchedDocumentBounds.maxTotalBytes,
              let fetchedAt = s.number(1), let freshUntil = s.number(2) else { return nil }
        let found = CachedDocument(url: url, body: s.blob(0), fetchedAt: fetchedAt, freshUntil: freshUntil)
        return FetchedDocumentBounds.isSound(found, for: url) ? found : nil
    }

    /// Keeps `document` in the file, replacing an older copy of the same URL, then trims the table to its
    /// bounds. A document over the bounds, or a write that fails, is not kept (the next fetch tries again).
    public func keep(_ document: CachedDocument) {
        guard document.url.utf8.count <= FetchedDocumentBounds.maxURLBytes,
              FetchedDocumentBounds.isSound(document, for: document.url) else { return }
        lock.lock()
        defer { lock.unlock() }
        if let database {
            if !isClosed, !isReadOnly { database.keep(document) }
            return
        }
        guard let connection = documentConnection else { return }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            let s = try connection.cached("INSERT OR REPLACE INTO fetched_document (url, body, fetched_at, fresh_until) VALUES (?1, ?2, ?3, ?4)")
            defer { s.reset() }
            try s.bind(document.url, at: 1)
            try s.bind(document.body, at: 2)
            try s.bind(document.fetchedAt, at: 3)
            try s.bind(document.freshUntil, at: 4)
            try s.run()
            try trimDocuments(connection, now: document.fetchedAt)
            try connection.execute("COMMIT")
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
        }
    }

    /// The writer's connection when documents may be read and written through it now.
    private var documentConnection: SQLiteConnection? {
        guard !isClosed, !isReadOnly, let connection, !connection.isReadOnly else { return nil }
        return connection
    }

    /// Deletes the rows whose times no fetch made (fetched after `now` plus a day, before 1970, fresh before they
    /// were fetched or past year 3000: a damaged or forged row would otherwise sort first and never be trimmed),
    /// then the least recently fetched rows beyond `FetchedDocumentBounds`.
    private func trimDocuments(_ connection: SQLiteConnection, now: Double) throws(SQLiteFailure) {
        let absurd = try connection.cached("""
            DELETE FROM fetched_document WHERE NOT (typeof(fetched_at) = 'real' AND typeof(fresh_until) = 'real'
              AND fetched_at >= 0 AND fetched_at <= ?1 AND fresh_until >= fetched_at AND fresh_until < 32503680000)
            """)
        defer { absurd.reset() }
        try absurd.bind(now + 86_400, at: 1)
        try absurd.run()
        let rows = try connection.prepare("SELECT url, length(body) FROM fetched_document ORDER BY fetched_at DESC, url")
        var kept = 0, bytes = 0
        var doomed: [String] = []
        while try rows.step() {
            kept += 1
            bytes += Int(clamping: rows.int64(1))
            if kept > FetchedDocumentBounds.maxDocuments || bytes > FetchedDocumentBounds.maxTotalBytes { doomed.append(rows.text(0)) }
        }
        let delete = try connection.cached("DELETE FROM fetched_document WHERE url = ?1")
        for url in doomed {
            try delete.bind(url, at: 1)
            try delete.run()
        }
    }
}
