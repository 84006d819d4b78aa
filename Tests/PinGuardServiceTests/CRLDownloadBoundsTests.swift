import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PinGuardCore
import PinGuardDemo
import PinGuardFetch
import PinGuardFetchTestSupport
import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// The downloads' bounds, counted: a certificate's points past the cap are never asked, asking never waits on
/// the network, and a cancelled pass (shutdown) abandons its fetches and records nothing for them.
final class CRLDownloadBoundsTests: XCTestCase {
    /// Made when each test starts: XCTest makes every test's instance at launch, long before a late test runs,
    /// and the lists a test makes are dated from the wall clock when it runs.
    var clock: ManualClock!

    override func setUp() {
        clock = ManualClock(start: Date())
    }

    /// A listener that completes TCP handshakes (the kernel's backlog) and never answers: a tarpit.
    func tarpit() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        XCTAssertEqual(listen(fd, 128), 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    func downloads(timeout: Double) throws -> CRLDownloads {
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: timeout))
        return CRLDownloads(cache: CRLCache(clock: clock), fetcher: fetcher, store: MemoryDocumentStore(), clock: clock)
    }

    /// The healthy leaf's served chain with its leaf naming `points`.
    func facts(points: [String]) throws -> ProbeFacts {
        let pki = try RevocationPKI(base: "http://127.0.0.1:9")
        var chain = try pki.chain("healthy")
        chain[0].crlDistributionPoints = points
        var facts = ProbeFacts(host: "healthy.pinguard.test", port: 443, address: "127.0.0.1", finishedAt: clock.now)
        facts.servedChain = Array(chain.prefix(2))
        facts.verifiedChain = chain
        facts.trusted = true
        return facts
    }

    func testACertificatesPointsPastTheCapAreNeverAskedAndAskingWaitsOnNothing() async throws {
        let pit = try tarpit()
        defer { close(pit.fd) }
        let d = try downloads(timeout: 3600)
        let points = (0..<2_000).map { "http://127.0.0.1:\(pit.port)/crl\($0)" }
        let checker = RevocationChecker(cache: d.cache, clock: clock)
        let states = await checker.states(of: try facts(points: points))
        XCTAssertEqual(states.first?.state, .unknown(.notFetched), "answered at once, from nothing known")
        let due = await d.cache.takeDue(limit: 10_000)
        XCTAssertEqual(due.count, CRLCache.maxPointsPerCertificate + 1, "the leaf's first four points and the intermediate's one")
        XCTAssertEqual(Set(due.map(\.0.url)).intersection(points).count, CRLCache.maxPointsPerCertificate)
    }

    func testACancelledPassAbandonsItsFetchesAndRecordsNothing() async throws {
        let pit = try tarpit()
        defer { close(pit.fd) }
        // Were the fetches not abandoned, each would end at this timeout, as a failure the assertions below see.
        let d = try downloads(timeout: 120)
        let checker = RevocationChecker(cache: d.cache, clock: clock)
        let points = (0..<3).map { "http://127.0.0.1:\(pit.port)/crl\($0)" }
        _ = await checker.states(of: try facts(points: points))
        let pass = Task { await d.pass() }
        while await d.cache.hasDue { await Task.yield() }
        pass.cancel()
        let finished = await pass.value
        XCTAssertTrue(Set(finished.map(\.url)).isDisjoint(with: points), "no tarpit fetch finished: each was abandoned")
        let wantedAgain = await d.cache.hasDue
        XCTAssertTrue(wantedAgain, "the abandoned lists are still wanted")
        let statuses = await d.cache.statuses(named: Set(points))
        XCTAssertEqual(statuses, [], "no failure recorded for an abandoned fetch")
    }
}
