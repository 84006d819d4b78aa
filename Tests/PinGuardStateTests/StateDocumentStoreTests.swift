import PinGuardCore
import PinGuardState
import XCTest

/// Fetched documents in the state file: kept across restarts, bounded, read back as untrusted input.
final class StateDocumentStoreTests: XCTestCase {
    private let crl = CachedDocument(url: "http://crl.example/ca.crl", body: [0x30, 0x03, 1, 2, 3], fetchedAt: 1_000, freshUntil: 90_000)

    func testARestartFindsWhatWasFetched() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        store.keep(crl)
        store.keep(CachedDocument(url: crl.url, body: [9], fetchedAt: 2_000, freshUntil: 95_000))
        store.close()

        let reopened = try StateStore.open(path: path, readOnly: false)
        XCTAssertEqual(reopened.document(url: crl.url), CachedDocument(url: crl.url, body: [9], fetchedAt: 2_000, freshUntil: 95_000))
        XCTAssertNil(reopened.document(url: "http://crl.example/other.crl"))
        XCTAssertEqual(try RawSQLite(path).query("SELECT count(*) FROM fetched_document"), ["1"])
    }

    func testAFileOfTheFirstSchemaIsMigratedWithItsChainsKept() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        try commitRound(store, now: 100, [("t", "a1", testChain(leaf: 1, key: 1, notBefore: 1_000))])
        store.close()
        let raw = try RawSQLite(path, readOnly: false)
        try raw.query("DROP TABLE fetched_document")
        try raw.query("PRAGMA user_version = 1")

        let migrated = try StateStore.open(path: path, readOnly: false)
        migrated.keep(crl)

        XCTAssertEqual(migrated.history(target: "t").count, 1)
        XCTAssertEqual(migrated.document(url: crl.url), crl)
        XCTAssertEqual(try RawSQLite(path).query("PRAGMA user_version"), ["2"])
    }

    func testRowsThatCannotBeTrueAreIgnored() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        store.keep(crl)
        store.close()
        let raw = try RawSQLite(path, readOnly: false)
        try raw.query("INSERT INTO fetched_document VALUES ('https://a.example/backwards', x'00', 5000, 10)")
        try raw.query("INSERT INTO fetched_document VALUES ('https://a.example/text-times', x'00', 'soon', 'later')")
        try raw.query("UPDATE fetched_document SET fresh_until = 1e300 WHERE url = '\(crl.url)'")

        let reopened = try StateStore.open(path: path, readOnly: false)
        XCTAssertNil(reopened.document(url: "https://a.example/backwards"))
        XCTAssertNil(reopened.document(url: crl.url), "fresh for longer than any certificate lives")
        XCTAssertNil(reopened.document(url: "https://a.example/text-times"))
    }

    func testTheTableKeepsTheMostRecentWithinItsRowBound() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        let limit = FetchedDocumentBounds.maxDocuments
        for i in 0...limit {
            store.keep(CachedDocument(url: "https://a.example/\(i)", body: [1], fetchedAt: Double(i), freshUntil: Double(i) + 1))
        }
        XCTAssertNil(store.document(url: "https://a.example/0"))
        XCTAssertNotNil(store.document(url: "https://a.example/\(limit)"))
        XCTAssertEqual(try RawSQLite(path).query("SELECT count(*) FROM fetched_document"), ["\(limit)"])
    }

    func testReadOnlyStoresFindWhatTheWriterKeptAndKeepNothingWhileInMemoryStoresNeither() throws {
        let path = try makeDirectory() + "/state.db"
        let writer = try StateStore.open(path: path, readOnly: false)
        writer.keep(crl)
        writer.close()
        let reader = try StateStore.open(path: path, readOnly: true)
        reader.keep(CachedDocument(url: "https://a.example/", body: [], fetchedAt: 1, freshUntil: 2))
        XCTAssertNil(reader.document(url: "https://a.example/"))
        XCTAssertEqual(reader.document(url: crl.url), crl, "a read-only store finds what the writer kept")
        reader.close()
        XCTAssertNil(reader.document(url: crl.url), "a closed store finds nothing")
        let memory = StateStore.inMemory()
        memory.keep(crl)
        XCTAssertNil(memory.document(url: crl.url))
    }
}

/// Rows whose times no fetch could have made are deleted at the next write, so a damaged or forged row that would
/// sort first is never kept for good.
final class StateDocumentTrimTests: XCTestCase {
    func testARowWithAnAbsurdFetchTimeIsTrimmedAtTheNextWrite() throws {
        let path = try makeDirectory() + "/state.db"
        let store = try StateStore.open(path: path, readOnly: false)
        store.keep(CachedDocument(url: "http://crl.example/a.crl", body: [1], fetchedAt: 1_000, freshUntil: 2_000))
        store.close()
        let raw = try RawSQLite(path, readOnly: false)
        try raw.query("INSERT INTO fetched_document VALUES ('http://x.example/future', x'00', 1e300, 1e300)")
        try raw.query("INSERT INTO fetched_document VALUES ('http://x.example/text', x'00', 'soon', 'later')")
        try raw.query("INSERT INTO fetched_document VALUES ('http://x.example/negative', x'00', -5, 10)")

        let reopened = try StateStore.open(path: path, readOnly: false)
        reopened.keep(CachedDocument(url: "http://crl.example/b.crl", body: [2], fetchedAt: 3_000, freshUntil: 4_000))
        reopened.close()
        XCTAssertEqual(try RawSQLite(path).query("SELECT url FROM fetched_document ORDER BY url"),
                       ["http://crl.example/a.crl", "http://crl.example/b.crl"])
    }
}
