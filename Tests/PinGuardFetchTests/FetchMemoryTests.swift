import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PinGuardCore
import PinGuardFetch
import PinGuardFetchTestSupport
import XCTest

/// A download leaves nothing behind: the heap in use (glibc's count over every arena, not the resident set, which
/// moves with the allocator's caching) after 4,000 downloads is what it was after the first 1,000: the leak it guards
/// against kept about 900 bytes a download, 3.6 MB over the count, far above the heap's noise.
final class FetchMemoryTests: XCTestCase {
    /// Bytes of heap in use now: glibc's `malloc_info` totals over every arena (the bytes taken from the system,
    /// less the free chunks, plus the mapped chunks). `malloc_info` is not exported by the Glibc module, so it is
    /// looked up at run time.
    func heapInUse() throws -> Int {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-malloc-\(getpid()).xml").path
        defer { unlink(path) }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info"), let file = fopen(path, "w") else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "malloc_info is not available: the heap cannot be counted"])
        }
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>) -> Int32
        _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, file)
        fclose(file)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        // The totals follow the last </heap>.
        let totals = xml.components(separatedBy: "</heap>").last ?? ""
        func size(_ tag: String, _ type: String) -> Int {
            guard let r = totals.range(of: "<\(tag) type=\"\(type)\""), let s = totals[r.upperBound...].range(of: "size=\"") else { return 0 }
            return Int(totals[s.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        return size("system", "current") - size("total", "fast") - size("total", "rest") + size("total", "mmap")
    }

    func testThousandsOfDownloadsKeepNoMemory() async throws {
        let server = try await AuthorityServer()
        server.route("/list", AuthorityServer.Route(body: [UInt8](repeating: 0x30, count: 4096)))
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 30))
        for path in ["/list", "/missing"] {
            for _ in 0..<500 { _ = await fetcher.fetch(FetchRequest(url: server.url(path), purpose: .crl)) }
        }
        let before = try heapInUse()
        var fetched = 0
        let downloads = 4_000
        for n in 0..<downloads {
            if case .fetched = await fetcher.fetch(FetchRequest(url: server.url(n % 2 == 0 ? "/list" : "/missing"), purpose: .crl)) { fetched += 1 }
        }
        let perDownload = (try heapInUse() - before) / downloads
        XCTAssertEqual(fetched, downloads, "every download was answered")
        XCTAssertLessThan(perDownload, 200, "bytes kept per download (a timer raced against each fetch kept about 900)")
        await server.stop()
    }
}
