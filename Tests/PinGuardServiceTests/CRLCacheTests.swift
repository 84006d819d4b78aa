import Foundation
import PinGuardCore
import PinGuardDemo
import PinGuardFetch
import PinGuardFetchTestSupport
import PinGuardService
import PinGuardServiceTestSupport
import PinGuardState
import PinGuardTestSupport
import XCTest

/// The CRL cache against a real HTTP server on loopback that counts requests, through the guarded fetcher:
/// one fetch however many chains ask at once, a list kept until its nextUpdate (across a restart, from the
/// state file), and a list that does not verify or is stale never believed nor kept.
final class CRLCacheTests: XCTestCase {
    var server: AuthorityServer!
    var pki: RevocationPKI!
    let clock = ManualClock(start: Date())

    override func setUp() async throws {
        server = try await AuthorityServer()
        pki = try RevocationPKI(base: server.url(""))
    }

    override func tearDown() async throws { await server.stop() }

    func cache(store: any FetchedDocumentStore = MemoryDocumentStore()) throws -> CRLCache {
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 10))
        return CRLCache(fetcher: fetcher, store: store, clock: clock)
    }

    func serve(_ crl: [UInt8]) { server.route("/int.crl", AuthorityServer.Route(body: crl)) }

    var intermediate: ChainCertificate { get throws { try pki.chain("healthy")[1] } }

    func testTenThousandChainsUnderOneIntermediateCauseOneFetch() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)]))
        let cache = try cache(), issuer = try intermediate, url = pki.intermediateCRLURL
        let believed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10_000 { group.addTask { if case .success = await cache.list(url: url, issuer: issuer) { true } else { false } } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(believed, 10_000)
        XCTAssertEqual(server.requests("/int.crl"), 1)
        clock.advance(by: 3600)
        _ = await cache.list(url: url, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 1, "kept until its nextUpdate, not fetched every round")
        let status = await cache.currentStatuses()
        XCTAssertEqual(status.map(\.lastFetchSucceeded), [true])
    }

    func testAListSignedByAStrangerIsNeverBelievedNorKept() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [.init(serial: 101)]))
        let store = MemoryDocumentStore()
        let cache = try cache(store: store)
        let answer = await cache.list(url: pki.intermediateCRLURL, issuer: try intermediate)
        XCTAssertEqual(answer.failureReason, .badSignature)
        XCTAssertNil(store.document(url: pki.intermediateCRLURL))
        let status = await cache.currentStatuses()
        XCTAssertEqual(status, [CRLStatus(url: pki.intermediateCRLURL, nextUpdate: nil, lastFetchSucceeded: false, lastFailure: .badSignature)])
    }

    func testABadListNeverReplacesTheLastGoodOne() async throws {
        let good = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], nextUpdate: 600)
        serve(good)
        let store = MemoryDocumentStore()
        let cache = try cache(store: store), issuer = try intermediate
        guard case .success = await cache.list(url: pki.intermediateCRLURL, issuer: issuer) else { return XCTFail("the good list") }
        serve(try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [], nextUpdate: 86_400))
        clock.advance(by: 700)
        let answer = await cache.list(url: pki.intermediateCRLURL, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 2, "fetched again at the good list's nextUpdate")
        XCTAssertEqual(answer.failureReason, .badSignature, "the forged list is not believed, and the good one is past its nextUpdate")
        XCTAssertEqual(store.document(url: pki.intermediateCRLURL)?.body, good, "the last good copy stays")
    }

    func testAListPastItsNextUpdateIsNotBelieved() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], thisUpdate: -86_400, nextUpdate: -3600))
        let store = MemoryDocumentStore()
        let cache = try cache(store: store), issuer = try intermediate
        let answer = await cache.list(url: pki.intermediateCRLURL, issuer: issuer)
        XCTAssertEqual(answer.failureReason, .expired)
        XCTAssertNil(store.document(url: pki.intermediateCRLURL))
    }

    func testAFailedFetchIsRetriedAfterFifteenMinutesNotEveryRound() async throws {
        let cache = try cache(), issuer = try intermediate
        let first = await cache.list(url: pki.intermediateCRLURL, issuer: issuer)
        XCTAssertEqual(first.failureReason, .fetchFailed, "404")
        clock.advance(by: 300)
        _ = await cache.list(url: pki.intermediateCRLURL, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 1)
        serve(try DemoCRL.make(issuer: pki.intermediate))
        clock.advance(by: 900)
        guard case .success = await cache.list(url: pki.intermediateCRLURL, issuer: issuer) else { return XCTFail("the list after the retry") }
        XCTAssertEqual(server.requests("/int.crl"), 2)
    }

    func testARestartWithAFreshListInTheStateFileDoesNotFetchIt() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)]))
        let path = try TemporaryDirectory.make("pinguard-crl-state").appendingPathComponent("state.db").path
        let first = try StateStore.open(path: path, readOnly: false), issuer = try intermediate
        let before = try cache(store: first), after: CRLCache
        guard case .success = await before.list(url: pki.intermediateCRLURL, issuer: issuer) else {
            return XCTFail("the first fetch")
        }
        first.close()
        let reopened = try StateStore.open(path: path, readOnly: false)
        defer { reopened.close() }
        after = try cache(store: reopened)
        let answer = await after.list(url: pki.intermediateCRLURL, issuer: issuer)
        guard case .success(let list) = answer else { return XCTFail("\(answer)") }
        XCTAssertNotNil(list.revoked["64"], "serial 100 is listed")
        XCTAssertEqual(server.requests("/int.crl"), 1, "read from the state file, not fetched again")
    }
}

extension Result where Failure == RevocationUnknown {
    /// The reason of a failure, nil on success.
    var failureReason: RevocationUnknown? {
        if case .failure(let reason) = self { return reason }
        return nil
    }
}
