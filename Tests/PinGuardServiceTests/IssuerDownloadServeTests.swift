import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardDemo
import PinGuardFetchTestSupport
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// The service downloads the issuers Chrome would download, beside the rounds: a round judges a leaf served alone
/// as rejected for want of its intermediate and names the URL; the download pass gets it from a real loopback
/// server through the guarded fetcher, and the catch-up it wakes probes that target again, which Chrome now trusts.
final class IssuerDownloadServeTests: XCTestCase {
    var authority: AuthorityServer!
    var server: LoopbackTLSServer!
    var pki: GenerationMovePKI!

    override func setUp() async throws {
        authority = try await AuthorityServer()
        pki = try GenerationMovePKI(caIssuers: authority.url("/ye1.cer"))
        authority.route("/ye1.cer", AuthorityServer.Route(body: pki.intermediate.der))
        server = try LoopbackTLSServer(leaf: pki.leaf, chain: nil)
    }

    override func tearDown() async throws {
        server.stop()
        await authority.stop()
    }

    func runtime(extra: String = "") throws -> PinGuardRuntime {
        let dir = try TemporaryDirectory.make("pinguard-aia-serve")
        try pki.storesJSON(client: "chrome", known: "120-140", roots: ["ye": "105-"])
            .write(to: dir.appendingPathComponent("stores.json"), atomically: true, encoding: .utf8)
        try "name: web\nclient: chrome\nenvironments:\n  prod:\n    default_policy:\n      pins:\n        - {type: spki, hash: \"\(pki.keys.ye.spkiSHA256)\"}\n"
            .write(to: dir.appendingPathComponent("web.yml"), atomically: true, encoding: .utf8)
        let yaml = "interval: 60s\ntimeout: 5s\npolicies: [web.yml]\njournal: {enabled: false}\ntrust: {client_stores: stores.json}\n"
            + "fetch: {networks: [127.0.0.0/8], timeout: 10s}\n" + extra + "targets:\n"
            + "  - {name: app, host: \(GenerationMovePKI.host), port: \(server.port), connect: 127.0.0.1}\n"
        let file = dir.appendingPathComponent("pinguard.yml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return try PinGuardRuntime(loaded: try ConfigurationLoader.load(path: file.path), journal: JournalSink(enabled: false))
    }

    func chromePath(_ runtime: PinGuardRuntime) throws -> ClientPath {
        let result = try XCTUnwrap(runtime.store.results.first)
        return try XCTUnwrap(result.nodes.first?.facts.clientPaths.byClient[.chrome]?.first)
    }

    func testTheRoundDownloadsTheIssuerAndJudgesTheTargetProbedAgainSoChromeTrustsItFromTheStart() async throws {
        let runtime = try runtime()
        let round = await runtime.runRound(spread: false)
        XCTAssertEqual(round.results.count, 1)
        let path = try chromePath(runtime)
        XCTAssertTrue(path.trusted, path.reason ?? "")
        XCTAssertEqual(path.chain.map(\.source), [.served, .fetched, .store])
        XCTAssertTrue(try XCTUnwrap(runtime.store.results.first).allAccept, "no moment of rejection is recorded")
        XCTAssertEqual(authority.requests("/ye1.cer"), 1)

        _ = await runtime.runRound(spread: false)
        XCTAssertEqual(authority.requests("/ye1.cer"), 1, "nothing is downloaded again while the download is fresh")
        XCTAssertTrue(try chromePath(runtime).trusted)
        await runtime.shutdown()
    }

    func testAFailedDownloadIsTheReasonAndIsNotTriedAgainWithinTheHour() async throws {
        authority.route("/ye1.cer", AuthorityServer.Route(status: 404))
        let runtime = try runtime()
        _ = await runtime.runRound(spread: false)
        let path = try chromePath(runtime)
        XCTAssertFalse(path.trusted)
        XCTAssertTrue(path.reason?.contains("which failed: HTTP status 404") ?? false, path.reason ?? "")
        _ = await runtime.runRound(spread: false)
        XCTAssertEqual(authority.requests("/ye1.cer"), 1, "a failure is tried again after an hour, not every round")
        await runtime.shutdown()
    }

    func testAProbeRequestDownloadsNothing() async throws {
        let runtime = try runtime(extra: "probe_allow: {hosts: [\"127.0.0.1\"], networks: [\"127.0.0.0/8\"], ports: [\(server.port)]}\n")
        let query = try XCTUnwrap(ProbeQuery(uri: "/probe?target=127.0.0.1:\(server.port)&debug=true"))
        guard case .log = await runtime.probe(query) else { return XCTFail("not probed") }
        XCTAssertEqual(authority.requests("/ye1.cer"), 0, "an untrusted requester causes no download")
        _ = await runtime.runRound(spread: false)
        XCTAssertEqual(authority.requests("/ye1.cer"), 1, "the round downloads it")
        await runtime.shutdown()
    }
}
