import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PinGuardCore
import PinGuardFetch
import PinGuardFetchTestSupport
import XCTest

/// A download leaves nothing behind: the heap in use (glibc's count over every arena, not the resident set, which
/// moves with the allocator's caching) after 10,000 downloads is what it was after the first 1,000.
final class FetchMemoryTests: XCTestCase {
    /// Bytes of heap in use now, from `mallinfo2`.
    func heapInUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }

    func testTenThousandDownloadsKeepNoMemory() async throws {
        let server = try await AuthorityServer()
        server.route("/list", AuthorityServer.Route(body: [UInt8](repeating: 0x30, count: 4096)))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 30))
        for path in ["/list", "/missing"] {
            for _ in 0..<500 { _ = await fetcher.fetch(FetchRequest(url: server.url(path), purpose: .crl)) }
        }
        let before = heapInUse()
        var fetched = 0
        for n in 0..<10_000 {
            if case .fetched = await fetcher.fetch(FetchRequest(url: server.url(n % 2 == 0 ? "/list" : "/missing"), purpose: .crl)) { fetched += 1 }
        }
        let perDownload = (heapInUse() - before) / 10_000
        XCTAssertEqual(fetched, 10_000, "every download was answered")
        XCTAssertLessThan(perDownload, 200, "bytes kept per download (a timer raced against each fetch kept about 900)")
        await server.stop()
    }
}
