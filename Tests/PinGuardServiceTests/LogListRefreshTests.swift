import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCTTestSupport
import PinGuardFetch
import PinGuardFetchTestSupport
import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// Chrome's log list fetched from its URL, as a publisher on loopback serves it over HTTPS with a CA of the
/// test's own, signed with a key made here: a good list is put in force and CT judged again with it; a
/// tampered or older one is refused and the last good one kept; a restart starts from the state file.
final class LogListRefreshTests: XCTestCase {
    private let served = InProcessService.pin(byte: 1)
    private let backup = InProcessService.pin(byte: 2)

    /// The publisher: an HTTPS server on 127.0.0.1, a signing key, two CT logs of two operators.
    private struct Publisher {
        let tls: AuthorityTLS
        let server: AuthorityServer
        let signer: TestLogListPublisher
        let logs: [TestCTLog]
        let keyFile: String
        var listURL: String { server.url("/ct/log_list.json") }

        static func start(in dir: URL) async throws -> Publisher {
            let tls = try AuthorityTLS()
            let signer = try TestLogListPublisher()
            let keyFile = dir.appendingPathComponent("chrome-key.pem").path
            try signer.publicKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
            return Publisher(tls: tls, server: try await AuthorityServer(tls: tls), signer: signer, logs: try TestCTLog.make(2),
                             keyFile: keyFile)
        }

        /// Serves version `version` dated `date`, naming the first `count` logs, signed (over other bytes when `tampered`).
        func publish(_ version: String, date: Date, logs count: Int, tampered: Bool = false) throws {
            let entries = logs.prefix(count).enumerated().map { TestLogListEntry(log: $1, operatorName: "Operator \($0)") }
            let json = Array(TestLogListJSON.make(version: version, timestamp: date, entries: entries).utf8)
            let signature = try signer.sign(json)
            server.route("/ct/log_list.json", .init(body: tampered ? json.map { $0 == UInt8(ascii: "0") ? UInt8(ascii: "1") : $0 } : json))
            server.route("/ct/log_list.sig", .init(body: signature))
        }
    }

    private func config(_ publisher: Publisher, refresh: String = "1h") -> String {
        InProcessService.config(hosts: ["a.test"]) + """
        ct:
          log_lists: {chrome: "\(publisher.listURL)"}
          log_list_keys: {chrome: "\(publisher.keyFile)"}
          refresh: \(refresh)
        fetch: {networks: [127.0.0.0/8], ca_file: "\(publisher.tls.caFile)", timeout: 10s}

        """
    }

    private func service(_ publisher: Publisher, memory: ChainMemory? = nil,
                         fetcher: @escaping @Sendable (FetchSettings) throws -> any DocumentFetching = { try GuardedFetcher(settings: $0) })
        throws -> InProcessService {
        let config = config(publisher)
        let policy = InProcessService.policy(name: "app", pattern: "**.test", pins: [served, backup])
            .replacingOccurrences(of: "environments:", with: "client: chrome\nenvironments:")
        let s = try InProcessService(config: config, policies: ["app.yml": policy], fetcher: fetcher,
                                     memory: memory)
        serveWithSCTs(s, from: publisher.logs)
        return s
    }

    /// `a.test` serves a 90-day leaf with SCTs of both logs embedded: Chrome accepts it only when its list names both.
    private func serveWithSCTs(_ s: InProcessService, from logs: [TestCTLog]) {
        let leaf = ChainCertificate(depth: 0, subject: "CN=a.test", issuer: "CN=Test CA", serial: "01",
                                    notBefore: s.clock.now.addingTimeInterval(-86_400), notAfter: s.clock.now.addingTimeInterval(89 * 86_400),
                                    spkiSHA256: served, certSHA256: InProcessService.pin(byte: 0xEE))
        var facts = ProbeFacts(host: "a.test", port: 443, duration: 0.01, tlsVersion: "TLSv1.3", servedChain: [leaf],
                               verifiedChain: [leaf], trusted: true, finishedAt: s.clock.now)
        facts.ct = CTObservation(collected: true, scts: logs.map {
            ObservedSCT(logID: $0.logIDBase64, timestamp: s.clock.now.addingTimeInterval(-3_600), source: .embedded, status: .valid)
        })
        s.executor.answer("a.test", with: facts)
    }

    /// A service whose publisher serves version 2.0 (both logs), fetched and then judged in a round.
    private func serviceWithGoodList(_ prefix: String) async throws -> (Publisher, InProcessService) {
        let publisher = try await Publisher.start(in: try TemporaryDirectory.make(prefix))
        let s = try service(publisher)
        try publisher.publish("2.0", date: day(s, -1), logs: 2)
        await s.runtime.refreshDueLogLists()
        _ = await s.runtime.runRound(spread: false)
        return (publisher, s)
    }

    private func chrome(_ s: InProcessService) -> CTLogList? { s.runtime.configuration.config.ct.lists[.chrome] }
    private func verdict(_ s: InProcessService) -> Verdict? { s.runtime.snapshot().results.first?.evaluations.first?.verdict }
    private func day(_ s: InProcessService, _ n: Double) -> Date { s.clock.now.addingTimeInterval(n * 86_400) }

    /// `pinguard_ct_log_list_timestamp_seconds{client="chrome"}` as /metrics renders it.
    private func listTimestamp(_ s: InProcessService) -> Double? {
        let text = String(decoding: MetricsRenderer.render(s.runtime.snapshot()), as: UTF8.self)
        let prefix = "pinguard_ct_log_list_timestamp_seconds{client=\"chrome\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    func testASignedListIsPutInForceAndCTJudgedAgainWithIt() async throws {
        let dir = try TemporaryDirectory.make("pinguard-log-list-refresh")
        let publisher = try await Publisher.start(in: dir)
        let s = try service(publisher)
        try publisher.publish("1.0", date: day(s, -2), logs: 1)
        XCTAssertEqual(chrome(s)?.origin, "bundled", "the bundled copy stands in until the first fetch")

        await s.runtime.refreshDueLogLists()
        XCTAssertEqual(chrome(s)?.version, "1.0")
        XCTAssertEqual(chrome(s)?.origin, publisher.listURL)
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(verdict(s), .reject, "one of the two logs is known to this list: Chrome rejects the chain")
        XCTAssertEqual(listTimestamp(s), day(s, -2).timeIntervalSince1970, "the metric shows the list in force")

        try publisher.publish("2.0", date: day(s, -1), logs: 2)
        s.clock.advance(by: 3_601)
        await s.runtime.refreshDueLogLists()
        XCTAssertEqual(chrome(s)?.version, "2.0")
        XCTAssertEqual(verdict(s), .accept, "judged again with the new list, without a probe")
        XCTAssertEqual(publisher.server.requests("/ct/log_list.sig"), 2)
        await publisher.server.stop()
    }

    func testATamperedOrOlderListIsRefusedAndTheLastGoodOneKept() async throws {
        let (publisher, s) = try await serviceWithGoodList("pinguard-log-list-refuse")
        XCTAssertEqual(verdict(s), .accept)

        try publisher.publish("3.0", date: day(s, 0), logs: 1, tampered: true)
        let said = try await StandardErrorCapture.lines {
            for _ in 0..<2 {
                s.clock.advance(by: 3_601)
                await s.runtime.refreshDueLogLists()
            }
        }
        XCTAssertEqual(chrome(s)?.version, "2.0", "a list whose signature fails is not taken")
        XCTAssertEqual(verdict(s), .accept)
        XCTAssertEqual(said.filter { $0.contains("refused: its signature does not verify") }.count, 1,
                       "said once, not at every refresh: \(said)")
        XCTAssertTrue(said.first?.hasPrefix("pinguard: chrome CT log list \(publisher.listURL): refused") ?? false, "\(said)")

        try publisher.publish("1.0", date: day(s, -30), logs: 1)
        s.clock.advance(by: 3_601)
        await s.runtime.refreshDueLogLists()
        XCTAssertEqual(chrome(s)?.version, "2.0", "a validly signed list older than the one in force is not taken")
        XCTAssertEqual(verdict(s), .accept)
        XCTAssertEqual(publisher.server.requests("/ct/log_list.json"), 4, "fetched again at each refresh")
        await publisher.server.stop()
    }

    func testAReloadKeepsTheFetchedListInForceWithoutFetching() async throws {
        let (publisher, s) = try await serviceWithGoodList("pinguard-log-list-reload")
        try s.rewrite("pinguard.yml", config(publisher, refresh: "2h"))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertEqual(chrome(s)?.version, "2.0", "the configuration still names the URL: its list stays in force")
        XCTAssertEqual(verdict(s), .accept)
        XCTAssertEqual(publisher.server.requests("/ct/log_list.json"), 1, "a reload fetches nothing")
        await publisher.server.stop()
    }

    func testAnUnreachablePublisherLeavesTheBundledListAndIsSaidOnce() async throws {
        let dir = try TemporaryDirectory.make("pinguard-log-list-offline")
        let publisher = try await Publisher.start(in: dir)
        let s = try service(publisher)
        await publisher.server.stop()
        let said = try await StandardErrorCapture.lines {
            for _ in 0..<2 {
                await s.runtime.refreshDueLogLists()
                s.clock.advance(by: 3_601)
            }
        }
        XCTAssertEqual(chrome(s)?.origin, "bundled", "the bundled copy stays in force")
        let notFetched = said.filter { $0.contains("not fetched") }
        XCTAssertEqual(notFetched.count, 1, "said once: \(said)")
        XCTAssertTrue(notFetched.first?.contains("the list in force stays (the bundled copy, 2026-08-20") ?? false, "\(said)")
        XCTAssertEqual(said.filter { $0.contains("the chrome CT log list (bundled, 2026-08-20") && $0.contains("days old")
                                     && $0.hasSuffix("(no newer list could be had from \(publisher.listURL))") }.count, 1,
                       "the stale bundled list is warned about once, after the fetch failed: \(said)")
    }

    func testAFetcherThatCannotBeMadeIsSaidOnceAndTriedWithinTheHour() async throws {
        let dir = try TemporaryDirectory.make("pinguard-log-list-no-fetcher")
        let publisher = try await Publisher.start(in: dir)
        let attempts = AttemptCount()
        let s = try service(publisher, fetcher: { _ in
            attempts.add()
            throw HarnessError("fetch.ca_file holds no certificate (scripted)")
        })
        try publisher.publish("2.0", date: day(s, -1), logs: 2)
        let said = try await StandardErrorCapture.lines {
            await s.runtime.refreshDueLogLists()
            await s.runtime.refreshDueLogLists()
            XCTAssertEqual(attempts.value, 1, "not tried again at once")
            s.clock.advance(by: 3_601)
            await s.runtime.refreshDueLogLists()
        }
        XCTAssertEqual(attempts.value, 2, "tried again within the hour")
        XCTAssertEqual(said.filter { $0.contains("not fetched: fetch.ca_file holds no certificate (scripted)") }.count, 1, "\(said)")
        XCTAssertEqual(chrome(s)?.origin, "bundled")
        XCTAssertEqual(publisher.server.totalRequests, 0)
        await publisher.server.stop()
    }

    func testARestartStartsFromTheStateFileWithoutFetchingWhileFresh() async throws {
        let dir = try TemporaryDirectory.make("pinguard-log-list-restart")
        let publisher = try await Publisher.start(in: dir)
        let state = StateLocation.file(dir.appendingPathComponent("state.db").path)
        let first = try ChainMemory(location: state, configured: ["a.test"])
        let s1 = try service(publisher, memory: first)
        try publisher.publish("2.0", date: day(s1, -1), logs: 2)
        await s1.runtime.refreshDueLogLists()
        XCTAssertEqual(chrome(s1)?.version, "2.0")
        await s1.runtime.shutdown()

        let s2 = try service(publisher, memory: try ChainMemory(location: state, configured: ["a.test"]))
        XCTAssertEqual(chrome(s2)?.version, "2.0", "in force from the state file before any fetch")
        XCTAssertEqual(chrome(s2)?.origin, publisher.listURL)
        await s2.runtime.refreshDueLogLists()
        XCTAssertEqual(publisher.server.requests("/ct/log_list.json"), 1, "fresh for ct.refresh: not fetched again")
        _ = await s2.runtime.runRound(spread: false)
        XCTAssertEqual(verdict(s2), .accept)
        await s2.runtime.shutdown()
        await publisher.server.stop()
    }
}

/// How many times a fetcher was asked for.
private final class AttemptCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
