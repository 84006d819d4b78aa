import Foundation
import PinGuardConfig
import PinGuardCore
@testable import PinGuardReports
import PinGuardDemo
import PinGuardFetchTestSupport
@testable import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// A round of the service with real parts on loopback: TLS servers serving chains whose certificates name
/// CRL distribution points, an HTTP server publishing the CRLs and counting requests, the guarded fetcher
/// allowed onto loopback by `fetch.networks`, the root trusted by `trust.ca_file`.
final class RevocationServeTests: XCTestCase {
    var authority: AuthorityServer!
    var pki: RevocationPKI!
    var servers: [String: LoopbackTLSServer] = [:]
    /// The `pinguard.yml` the last `runtime()` loaded.
    var configFile: URL!

    override func setUp() async throws {
        authority = try await AuthorityServer()
        pki = try RevocationPKI(base: authority.url(""))
        for name in ["revoked", "healthy"] { servers[name] = try LoopbackTLSServer(leaf: pki.leaf(name), chain: pki.intermediate) }
    }

    override func tearDown() async throws {
        servers.values.forEach { $0.stop() }
        await authority.stop()
    }

    /// A runtime over both servers: `ios-app` pins the `revoked` leaf's key, `android-app` the intermediate's;
    /// its memory in the state file `stateFile`, else in memory.
    func runtime(stateFile: String? = nil, extra: String = "", loopbackFetches: Bool = true) throws -> PinGuardRuntime {
        let dir = try TemporaryDirectory.make("pinguard-crl-serve")
        try pki.root.pem.write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("policies"), withIntermediateDirectories: true)
        let sets = [("ios-app", [pki.leaf("revoked").key.spkiSHA256, pki.leaf("healthy").key.spkiSHA256]),
                    ("android-app", [pki.intermediate.key.spkiSHA256, pki.stranger.spkiSHA256])]
        for (name, pins) in sets {
            try InProcessService.policy(name: name, pattern: "*.pinguard.test", pins: pins)
                .write(to: dir.appendingPathComponent("policies/\(name).yml"), atomically: true, encoding: .utf8)
        }
        var yaml = "interval: 60s\ntimeout: 5s\npolicies: [\"policies/*.yml\"]\njournal: {enabled: false}\ntrust: {ca_file: root.pem}\n"
        yaml += extra + (loopbackFetches ? "fetch: {networks: [127.0.0.0/8], timeout: 10s}\n" : "") + "targets:\n"
        for (name, server) in servers.sorted(by: { $0.key < $1.key }) {
            yaml += "  - {name: \(name), host: \(name).pinguard.test, port: \(server.port), connect: 127.0.0.1}\n"
        }
        configFile = dir.appendingPathComponent("pinguard.yml")
        try yaml.write(to: configFile, atomically: true, encoding: .utf8)
        let loaded = try ConfigurationLoader.load(path: dir.appendingPathComponent("pinguard.yml").path)
        let memory = try stateFile.map { try ChainMemory(location: .file($0), configured: ["revoked", "healthy"]) }
            ?? ChainMemory(memoryOnly: "test", configured: ["revoked", "healthy"])
        return try PinGuardRuntime(loaded: loaded, journal: JournalSink(enabled: false), memory: memory)
    }

    func publish(intermediateRevokes serials: [Int] = [], rootRevokes rootSerials: [Int] = [], signer: DemoKey? = nil) throws {
        authority.route("/int.crl", AuthorityServer.Route(body: try DemoCRL.make(issuer: pki.intermediate, signer: signer,
                                                                                  revoked: serials.map { .init(serial: $0) })))
        authority.route("/root.crl", AuthorityServer.Route(body: try DemoCRL.make(issuer: pki.root,
                                                                                   revoked: rootSerials.map { .init(serial: $0, reason: .cACompromise) })))
    }

    /// A round, then the download pass beside it, which judges the round's results again with the lists it got.
    func listedRound(_ runtime: PinGuardRuntime) async -> PinGuardRuntime.RoundSummary {
        let round = await runtime.runRound(spread: false)
        await runtime.downloadRevocationLists()
        return round
    }

    func exposition(_ runtime: PinGuardRuntime) throws -> Exposition {
        try Exposition(String(decoding: MetricsRenderer.render(runtime.snapshot()), as: UTF8.self))
    }

    func revocationEvents(_ results: [TargetResult]) -> [[String: String]] {
        var detector = EventDetector(warningDays: 30)
        return results.flatMap { detector.observe($0) }.filter { $0.event == .certificateRevoked }
            .map { Dictionary($0.fields, uniquingKeysWith: { a, _ in a }) }
    }

    func testARevokedLeafIsReportedWithTheAppsThatPinItAndTwoTargetsShareOneFetch() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 0)])
        let runtime = try runtime()
        let round = await listedRound(runtime)
        let m = try exposition(runtime)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "revoked", "depth": "0"]), 1)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "healthy", "depth": "0"]), 0)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "revoked", "depth": "1"]), 0, "the root's list does not list it")
        XCTAssertNil(m.value("pinguard_certificate_revoked", ["target": "revoked", "depth": "2"]), "the anchor is not checked")
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": "revoked", "policy_set": "ios-app"]), 1, "reported, not a verdict")
        XCTAssertEqual(m.value("pinguard_crl_fetch_success", ["url": pki.intermediateCRLURL]), 1)
        XCTAssertNotNil(m.value("pinguard_crl_next_update_timestamp_seconds", ["url": pki.intermediateCRLURL]))
        XCTAssertEqual(authority.requests("/int.crl"), 1, "two targets under one intermediate: one fetch")
        XCTAssertEqual(authority.requests("/root.crl"), 1)
        let events = revocationEvents(round.results)
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?["PINGUARD_TARGET"], "revoked")
        XCTAssertEqual(events.first?["PINGUARD_SERIAL"], "64")
        XCTAssertEqual(events.first?["PINGUARD_PINNED_BY"], "ios-app/prod")
        _ = await listedRound(runtime)
        XCTAssertEqual(authority.requests("/int.crl"), 1, "not fetched again before its nextUpdate")
        await runtime.shutdown()
    }

    func testAnIntermediateRevokedByItsRootIsReportedForEveryTargetUnderIt() async throws {
        try publish(rootRevokes: [RevocationPKI.intermediateSerial])
        let runtime = try runtime()
        let round = await listedRound(runtime)
        let m = try exposition(runtime)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "revoked", "depth": "1"]), 1)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "healthy", "depth": "1"]), 1)
        let events = revocationEvents(round.results)
        XCTAssertEqual(events.map { $0["PINGUARD_DEPTH"] }, ["1", "1"])
        XCTAssertEqual(Set(events.compactMap { $0["PINGUARD_PINNED_BY"] }), ["android-app/prod"])
        XCTAssertEqual(events.first?["PINGUARD_REVOCATION_REASON"], "cACompromise")
        await runtime.shutdown()
    }

    func testARestartWithFreshListsInTheStateFileFetchesNothing() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 0)])
        let stateFile = try TemporaryDirectory.make("pinguard-crl-restart").appendingPathComponent("state.db").path
        let first = try runtime(stateFile: stateFile)
        _ = await listedRound(first)
        await first.shutdown()
        XCTAssertEqual(authority.totalRequests, 2, "int.crl and root.crl")
        let second = try runtime(stateFile: stateFile)
        _ = await listedRound(second)
        let m = try exposition(second)
        XCTAssertEqual(m.value("pinguard_certificate_revoked", ["target": "revoked", "depth": "0"]), 1, "judged by the stored list")
        XCTAssertEqual(m.value("pinguard_crl_fetch_success", ["url": pki.intermediateCRLURL]), 1)
        XCTAssertEqual(authority.totalRequests, 2, "nothing fetched again after the restart")
        await second.shutdown()
    }

    func testTheStatusPageShowsTheRevokedCertificate() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 0)])
        let runtime = try runtime()
        _ = await listedRound(runtime)
        let overview = StatusPage.render(runtime.snapshot())
        XCTAssertTrue(overview.contains("<h2>Revocation (CRLs)</h2>"), overview)
        XCTAssertTrue(overview.contains("CN=revoked.pinguard.test"), overview)
        let page = TargetPage.render(try XCTUnwrap(runtime.snapshot().results.first { $0.target.name == "revoked" }), memory: nil)
        XCTAssertTrue(page.contains("<td class=\"reject\">REVOKED "), page)
        XCTAssertTrue(page.contains("not revoked (CRL until "), page)
        await runtime.shutdown()
    }

    func testProbeDebugAnswersFromTheListsTheRoundsFetchedAndFetchesNone() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 0)])
        let port = try XCTUnwrap(servers["revoked"]).port
        let runtime = try runtime(extra: "probe_allow: {hosts: [\"revoked.pinguard.test\", \"127.0.0.1\"], networks: [\"127.0.0.0/8\"], ports: [\(port)]}\n")
        let query = try XCTUnwrap(ProbeQuery(uri: "/probe?target=127.0.0.1:\(port)&debug=true"))
        guard case .log(let before) = await runtime.probe(query) else { return XCTFail("no probe log") }
        XCTAssertTrue(before.contains("not_fetched") || before.contains("not fetched"), before)
        await runtime.downloadRevocationLists()
        XCTAssertEqual(authority.totalRequests, 0, "a /probe wants no list: nothing is downloaded for it")
        _ = await listedRound(runtime)
        guard case .log(let after) = await runtime.probe(query) else { return XCTFail("no probe log") }
        XCTAssertTrue(after.contains("depth 0: REVOKED at "), after)
        XCTAssertTrue(after.contains("(keyCompromise), CRL \(pki.intermediateCRLURL)"), after)
        XCTAssertEqual(authority.requests("/int.crl"), 1, "fetched once, by the round's download pass")
        await runtime.shutdown()
    }

    func testAReloadThatOpensFetchNetworksFetchesTheListsAtOnce() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 0)])
        let runtime = try runtime(loopbackFetches: false)
        let before = await listedRound(runtime)
        let refused = try XCTUnwrap(before.results.first { $0.target.name == "revoked" })
        XCTAssertEqual(refused.nodes[0].facts.revocation.first?.state, .unknown(.fetchFailed))
        XCTAssertEqual(authority.totalRequests, 0, "loopback is not reached without fetch.networks")
        let text = try String(contentsOf: configFile, encoding: .utf8)
        try text.replacingOccurrences(of: "targets:\n", with: "fetch: {networks: [127.0.0.0/8], timeout: 10s}\ntargets:\n")
            .write(to: configFile, atomically: true, encoding: .utf8)
        guard case .success = await runtime.reload(trigger: "test") else { return XCTFail("the reload") }
        _ = await listedRound(runtime)
        XCTAssertEqual(try exposition(runtime).value("pinguard_certificate_revoked", ["target": "revoked", "depth": "0"]), 1,
                       "fetched with the new settings, not held back by the failure under the old ones")
        XCTAssertEqual(authority.requests("/int.crl"), 1)
        await runtime.shutdown()
    }

    func testAForgedListIsNeverBelieved() async throws {
        try publish(intermediateRevokes: [RevocationPKI.serial(ofLeafAt: 1)], signer: pki.stranger)
        let runtime = try runtime()
        let round = await listedRound(runtime)
        let m = try exposition(runtime)
        XCTAssertNil(m.value("pinguard_certificate_revoked", ["target": "healthy", "depth": "0"]))
        XCTAssertEqual(m.value("pinguard_crl_fetch_success", ["url": pki.intermediateCRLURL]), 0)
        XCTAssertNil(m.value("pinguard_crl_next_update_timestamp_seconds", ["url": pki.intermediateCRLURL]))
        XCTAssertEqual(revocationEvents(round.results).count, 0)
        let healthy = try XCTUnwrap(round.results.first { $0.target.name == "healthy" })
        XCTAssertEqual(healthy.nodes[0].facts.revocation.first?.state, .unknown(.badSignature))
        await runtime.shutdown()
    }
}
