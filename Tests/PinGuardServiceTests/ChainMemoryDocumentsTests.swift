import Foundation
import PinGuardCore
@testable import PinGuardService
import XCTest

/// Without a state file, fetched documents are kept in memory for the memory's whole life: what one client
/// of `documents` kept (a CRL, a log list), every other client finds.
final class ChainMemoryDocumentsTests: XCTestCase {
    func testADocumentKeptWithoutAStateFileIsFoundThroughEveryClient() {
        let memory = ChainMemory(memoryOnly: "no state.path in the configuration", configured: ["t"])
        let document = CachedDocument(url: "http://crl.example.test/ca.crl", body: Array("list".utf8), fetchedAt: 100, freshUntil: 200)
        let keeper = memory.documents
        keeper.keep(document)
        XCTAssertEqual(memory.documents.document(url: document.url)?.body, document.body)
        XCTAssertNil(memory.documents.document(url: "http://crl.example.test/other.crl"))
    }
}
