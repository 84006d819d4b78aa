import PinGuardCore

/// Fetched documents (renewal information, CRLs, log lists) in the shared database's `pinguard_document`, the
/// same rules as the SQLite file's `fetched_document` (`StateStore+Documents`): every instance sees what any of
/// them fetched; a row read back is untrusted (`FetchedDocumentBounds.isSound`); the table stays within
/// `FetchedDocumentBounds`, the least recently fetched going first. A failure keeps nothing and finds nothing.
extension StateDatabase {
    /// The last good copy of `url`, if any.
    func document(url: String) -> CachedDocument? {
        guard let rows = try? usable().query("SELECT body, fetched_at, fresh_until FROM pinguard_document WHERE url = $1 "
                                             + "AND length(body) <= $2", [url, "\(FetchedDocumentBounds.maxTotalBytes)"]),
              rows.count == 1, let hex = rows.text(0, 0), let body = Self.bytes(hex),
              let fetchedAt = rows.text(0, 1).flatMap(Double.init), let freshUntil = rows.text(0, 2).flatMap(Double.init) else {
            return nil
        }
        let found = CachedDocument(url: url, body: body, fetchedAt: fetchedAt, freshUntil: freshUntil)
        return FetchedDocumentBounds.isSound(found, for: url) ? found : nil
    }

    /// Keeps `document`, replacing an older copy of its URL, then trims the table to its bounds.
    func keep(_ document: CachedDocument) {
        guard let connection = try? usable() else { return }
        _ = try? connection.transaction { () throws(PostgresFailure) in
            try connection.query("""
                INSERT INTO pinguard_document (url, body, fetched_at, fresh_until) VALUES ($1, $2, $3, $4)
                ON CONFLICT (url) DO UPDATE SET body = EXCLUDED.body, fetched_at = EXCLUDED.fetched_at,
                    fresh_until = EXCLUDED.fresh_until
                """, [document.url, Self.hex(document.body), "\(document.fetchedAt)", "\(document.freshUntil)"])
            try connection.query("""
                DELETE FROM pinguard_document WHERE url IN (
                    SELECT url FROM (
                        SELECT url, row_number() OVER w AS kept, sum(length(body)) OVER w AS bytes FROM pinguard_document
                        WINDOW w AS (ORDER BY fetched_at DESC, url)) ranked
                    WHERE kept > $1 OR bytes > $2)
                """, ["\(FetchedDocumentBounds.maxDocuments)", "\(FetchedDocumentBounds.maxTotalBytes)"])
        }
    }

    /// `bytes` as bytea input: `\x` and two hex digits per byte.
    static func hex(_ bytes: [UInt8]) -> String { "\\x" + Hex.encode(bytes) }

    /// The bytes of bytea output `\x...`; nil for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("\\x") else { return nil }
        return Hex.bytes(text.dropFirst(2))
    }
}
