import PinGuardCore
import PinGuardFetch
import PinGuardReaders
import XCTest

/// `fetch:` in pinguard.yml and the in-memory document store.
final class FetchConfigurationTests: XCTestCase {
    func testFetchKeysAreRead() throws {
        let c = try ServiceConfigParser.parse("fetch: {networks: [127.0.0.0/8, \"::1/128\"], ca_file: ca.pem, timeout: 5s}\n", file: "c.yml")
        XCTAssertEqual(c.fetch.networks.map(\.description), ["127.0.0.0/8", "0:0:0:0:0:0:0:1/128"])
        XCTAssertEqual(c.fetch.caFile, "ca.pem")
        XCTAssertEqual(c.fetch.timeout, 5)
        XCTAssertEqual(c.lines["fetch.ca_file"], 1)
    }

    func testWithoutFetchOnlyPublicUnicastIsReached() throws {
        let c = try ServiceConfigParser.parse("listen: \":9477\"\n", file: "c.yml")
        XCTAssertEqual(c.fetch, FetchSettings())
        XCTAssertFalse(c.fetch.permits(address: [127, 0, 0, 1]))
        XCTAssertFalse(c.fetch.permits(address: [10, 1, 2, 3]))
        XCTAssertTrue(c.fetch.permits(address: [93, 184, 216, 34]))
    }

    func testBadFetchKeysAreErrorsNamingTheKey() {
        let bad: [(String, String)] = [
            ("fetch: {networks: [10.0.0.0/40]}\n", "c.yml:1: fetch.networks[0]: \"10.0.0.0/40\" is not an address or network (CIDR)"),
            ("fetch: {networks: []}\n", "c.yml:1: fetch.networks: is empty: list the networks fetches may reach, or leave it out"),
            ("fetch: {timeout: 11m}\n", "c.yml:1: fetch.timeout: \"11m\" is longer than the maximum of 10m"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try ServiceConfigParser.parse(text, file: "c.yml")) { XCTAssertEqual("\($0)", message) }
        }
        XCTAssertThrowsError(try ServiceConfigParser.parse("fetch: {proxy: x}\n", file: "c.yml")) {
            XCTAssertTrue("\($0)".contains("proxy"), "\($0)")
        }
    }

    func testTheMemoryStoreKeepsTheNewestWithinItsBounds() {
        let store = MemoryDocumentStore()
        for i in 0...FetchedDocumentBounds.maxDocuments {
            store.keep(CachedDocument(url: "https://a.example/\(i)", body: [1], fetchedAt: Double(i), freshUntil: Double(i) + 60))
        }
        XCTAssertNil(store.document(url: "https://a.example/0"))
        XCTAssertEqual(store.document(url: "https://a.example/\(FetchedDocumentBounds.maxDocuments)")?.freshUntil,
                       Double(FetchedDocumentBounds.maxDocuments) + 60)
        store.keep(CachedDocument(url: "https://b.example/", body: [], fetchedAt: 10, freshUntil: 5))
        XCTAssertNil(store.document(url: "https://b.example/"), "fresh until before it was fetched")
    }
}
