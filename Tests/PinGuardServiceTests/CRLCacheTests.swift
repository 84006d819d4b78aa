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

/// The CRL cache and its downloads against a real HTTP server on loopback that counts requests, through the
/// guarded fetcher: asking never waits on the network, one fetch however many chains ask, a list kept until its
/// nextUpdate (across a restart, from the state file), a list that does not verify or is stale never believed
/// nor kept, and one issuer's failure never standing for another's list at the same URL.
final class CRLCacheTests: XCTestCase {
    var server: AuthorityServer!
    var pki: RevocationPKI!
    /// Made when each test starts: XCTest makes every test's instance at launch, long before a late test runs,
    /// and the lists a test makes are dated from the wall clock when it runs.
    var clock: ManualClock!

    override func setUp() async throws {
        clock = ManualClock(start: Date())
        server = try await AuthorityServer()
        pki = try RevocationPKI(base: server.url(""))
    }

    override func tearDown() async throws { await server.stop() }

    func downloads(store: any FetchedDocumentStore = MemoryDocumentStore()) throws -> CRLDownloads {
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 10))
        return CRLDownloads(cache: CRLCache(clock: clock), fetcher: fetcher, store: store, clock: clock)
    }

    func serve(_ crl: [UInt8]) { server.route("/int.crl", AuthorityServer.Route(body: crl)) }

    var intermediate: ChainCertificate { get throws { try pki.chain("healthy")[1] } }

    /// Asks for `serial` under `issuer`, downloads what is due, and asks again.
    func list(_ d: CRLDownloads, issuer: ChainCertificate, serial: String = "64") async -> Result<RevocationList, RevocationUnknown> {
        if case .success(let held) = await d.cache.known(url: pki.intermediateCRLURL, issuer: issuer, serial: serial) { return .success(held) }
        await d.pass()
        return await d.cache.known(url: pki.intermediateCRLURL, issuer: issuer, serial: serial, want: false)
    }

    func testTenThousandChainsUnderOneIntermediateCauseOneFetchAndAskingNeverFetches() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)]))
        let d = try downloads(), issuer = try intermediate, url = pki.intermediateCRLURL
        let pending = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<10_000 {
                group.addTask { await d.cache.known(url: url, issuer: issuer, serial: String(n, radix: 16, uppercase: true)).failureReason == .notFetched }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(pending, 10_000)
        XCTAssertEqual(server.requests("/int.crl"), 0, "asking fetches nothing")
        await d.pass()
        XCTAssertEqual(server.requests("/int.crl"), 1)
        guard case .success(let held) = await d.cache.known(url: url, issuer: issuer, serial: "64") else { return XCTFail("held") }
        XCTAssertNotNil(held.revoked["64"])
        XCTAssertEqual(held.covered?.count, 10_000, "the entries of the serials asked about, no more")
        clock.advance(by: 3600)
        _ = await list(d, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 1, "kept until its nextUpdate, not fetched every round")
        let status = await d.cache.statuses(named: [url])
        XCTAssertEqual(status.map(\.lastFetchSucceeded), [true])
        let forgotten = await d.cache.statuses(named: [])
        XCTAssertEqual(forgotten, [], "a point no chain names goes at once")
    }

    func testAListSignedByAStrangerIsNeverBelievedNorKept() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [.init(serial: 101)]))
        let store = MemoryDocumentStore()
        let d = try downloads(store: store)
        let answer = await list(d, issuer: try intermediate)
        XCTAssertEqual(answer.failureReason, .badSignature)
        XCTAssertNil(store.document(url: pki.intermediateCRLURL))
        let status = await d.cache.statuses(named: [pki.intermediateCRLURL])
        XCTAssertEqual(status, [CRLStatus(url: pki.intermediateCRLURL, nextUpdate: nil, lastFetchSucceeded: false, lastFailure: .badSignature)])
    }

    func testAnotherIssuersFailureAtTheSameURLNeverStandsForTheRealIssuersList() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)]))
        let d = try downloads(), real = try intermediate
        var other = real
        other.spkiSHA256 = pki.stranger.spkiSHA256
        other.publicKeyDER = pki.stranger.publicKeyDER
        let refused = await list(d, issuer: other)
        XCTAssertEqual(refused.failureReason, .badSignature)
        guard case .success(let list) = await list(d, issuer: real) else { return XCTFail("the real issuer's list") }
        XCTAssertNotNil(list.revoked["64"], "the revocation stays visible")
    }

    func testABadListNeverReplacesTheLastGoodOne() async throws {
        let good = try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], nextUpdate: 600)
        serve(good)
        let store = MemoryDocumentStore()
        let d = try downloads(store: store), issuer = try intermediate
        guard case .success = await list(d, issuer: issuer) else { return XCTFail("the good list") }
        serve(try DemoCRL.make(issuer: pki.intermediate, signer: pki.stranger, revoked: [], nextUpdate: 86_400))
        clock.advance(by: 700)
        let answer = await list(d, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 2, "fetched again at the good list's nextUpdate")
        XCTAssertEqual(answer.failureReason, .badSignature, "the forged list is not believed, and the good one is past its nextUpdate")
        XCTAssertEqual(store.document(url: pki.intermediateCRLURL)?.body, good, "the last good copy stays")
    }

    func testAListPastItsNextUpdateIsNotBelieved() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)], thisUpdate: -86_400, nextUpdate: -3600))
        let store = MemoryDocumentStore()
        let answer = await list(try downloads(store: store), issuer: try intermediate)
        XCTAssertEqual(answer.failureReason, .expired)
        XCTAssertNil(store.document(url: pki.intermediateCRLURL))
    }

    func testAFailedFetchIsRetriedAfterFifteenMinutesNotEveryRound() async throws {
        let d = try downloads(), issuer = try intermediate
        let first = await list(d, issuer: issuer)
        XCTAssertEqual(first.failureReason, .fetchFailed, "404")
        clock.advance(by: 300)
        _ = await list(d, issuer: issuer)
        XCTAssertEqual(server.requests("/int.crl"), 1)
        serve(try DemoCRL.make(issuer: pki.intermediate))
        clock.advance(by: 900)
        guard case .success = await list(d, issuer: issuer) else { return XCTFail("the list after the retry") }
        XCTAssertEqual(server.requests("/int.crl"), 2)
    }

    func testANewSerialUnderAHeldListIsReadAgainFromTheStoredCopy() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100), .init(serial: 101)]))
        let d = try downloads(), issuer = try intermediate
        guard case .success = await list(d, issuer: issuer, serial: "64") else { return XCTFail("the first serial") }
        guard case .success(let again) = await list(d, issuer: issuer, serial: "65") else { return XCTFail("the second serial") }
        XCTAssertNotNil(again.revoked["65"])
        XCTAssertNotNil(again.revoked["64"], "the serials asked before stay covered")
        XCTAssertEqual(server.requests("/int.crl"), 1, "read again from the stored copy")
    }

    func testARestartWithAFreshListInTheStateFileDoesNotFetchIt() async throws {
        serve(try DemoCRL.make(issuer: pki.intermediate, revoked: [.init(serial: 100)]))
        let path = try TemporaryDirectory.make("pinguard-crl-state").appendingPathComponent("state.db").path
        let first = try StateStore.open(path: path, readOnly: false), issuer = try intermediate
        guard case .success = await list(try downloads(store: first), issuer: issuer) else { return XCTFail("the first fetch") }
        first.close()
        let reopened = try StateStore.open(path: path, readOnly: false)
        defer { reopened.close() }
        let answer = await list(try downloads(store: reopened), issuer: issuer)
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

/// A list's dates come from a server: one valid for decades is never held for good.
final class CRLDateBoundsTests: XCTestCase {
    func testAListValidForDecadesIsNotBelieved() async throws {
        let server = try await AuthorityServer()
        let pki = try RevocationPKI(base: server.url(""))
        server.route("/int.crl", AuthorityServer.Route(body: try DemoCRL.make(issuer: pki.intermediate, nextUpdate: 50 * 365 * 86_400)))
        let clock = ManualClock(start: Date())
        let fetcher = try GuardedFetcher(settings: FetchSettings(networks: [IPNetwork("127.0.0.0/8")!], timeout: 10))
        let d = CRLDownloads(cache: CRLCache(clock: clock), fetcher: fetcher, store: MemoryDocumentStore(), clock: clock)
        let issuer = try pki.chain("healthy")[1]
        _ = await d.cache.known(url: pki.intermediateCRLURL, issuer: issuer, serial: "64")
        await d.pass()
        let answer = await d.cache.known(url: pki.intermediateCRLURL, issuer: issuer, serial: "64", want: false)
        XCTAssertEqual(answer.failureReason, .unsupported)
        XCTAssertEqual(server.requests("/int.crl"), 1)
        await server.stop()
    }
}
