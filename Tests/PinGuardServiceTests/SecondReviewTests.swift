import Foundation
import PinGuardCore
@testable import PinGuardService
import PinGuardTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Fixes of the second review, each on a real `pinguard serve` (or, for the lint keys, on the tracker itself):
/// what HTTP clients can hold (idle connections, connection count, /metrics responses in flight), serialized
/// reloads, reloads during a spread round, shutdown mid-round, a new endpoint under an old name, lint finding
/// keys, the open-file limit and the demo.
final class SecondReviewTests: XCTestCase {
    // MARK: - HTTP limits

    /// A connection that sends half a request head and then nothing is closed after the idle timeout
    /// (`PINGUARD_HTTP_IDLE_TIMEOUT=1`), and the server keeps answering others.
    func testHalfSentRequestIsClosedAfterTheIdleTimeout() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-idle")
        let config = try writeConfig(w, in: dir, targets: [w.healthy], interval: "1h", timeout: "2s")
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "1"])
        defer { serve.stop() }

        let client = try RawClient(port: serve.port)
        XCTAssertTrue(client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n"))
        let start = Date()
        let closed = client.closedByServer(within: 5)
        let took = Date().timeIntervalSince(start)
        XCTAssertTrue(closed, "the half-sent request was still open after 5 s")
        XCTAssertLessThan(took, 3, "closed only after \(took) s with a 1 s idle timeout")
        XCTAssertGreaterThan(took, 0.5, "closed after \(took) s: before the idle timeout")
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
    }

    /// At most 256 connections are served at once: of 300 idle connections, 44 are closed by the server at
    /// once, a new one is turned away too, probes go on meanwhile, and once the idle ones close the server
    /// answers again. pinguard also raises its soft open-file limit to the hard one: started with a soft
    /// limit of 1,024, it runs with the hard limit.
    func testConnectionsBeyondTheCapAreClosedAndProbesGoOn() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-cap")
        let config = try writeConfig(w, in: dir, targets: [w.healthy], interval: "1s", timeout: "1s")

        let original = OpenFiles.limits()
        XCTAssertGreaterThan(original.rlim_max, 1_100, "the hard open-file limit is too low for this test")
        OpenFiles.setSoft(1_024)
        let started = Result { try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "0"], mode: .direct,
                                                environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "30"]) }
        // This process needs 300+ descriptors itself.
        OpenFiles.setSoft(original.rlim_max)
        defer { OpenFiles.setSoft(original.rlim_cur) }
        let serve = try started.get()
        defer { serve.stop() }

        let limits = try OpenFiles.ofProcess(serve.pid)
        XCTAssertEqual(limits.soft, limits.hard, "pinguard runs with the hard open-file limit (started with soft 1024)")
        XCTAssertEqual(limits.hard, UInt64(original.rlim_max))

        var m = try serve.waitForMetrics(timeout: 10) { $0.value("pinguard_probe_success", ["target": "healthy"]) == 1 }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1, serve.stderr)
        let probesBefore = try XCTUnwrap(m.value("pinguard_probes_total"))

        var clients: [RawClient] = []
        defer { for c in clients { c.close() } }
        for _ in 0..<300 { clients.append(try RawClient(port: serve.port)) }
        let openedAt = Date()
        var closed: [Int] = []
        let settle = Date().addingTimeInterval(3)
        repeat {
            closed = clients.indices.filter { clients[$0].closedByServer(within: 0) }
            if closed.count >= 44 { break }
            usleep(50_000)
        } while Date() < settle
        XCTAssertEqual(closed.count, 44, "300 connections, 256 served: the rest are closed on accept (closed: \(closed))")
        XCTAssertLessThan(Date().timeIntervalSince(openedAt), 2, "the connections over the cap were closed at once")
        XCTAssertThrowsError(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 2),
                             "a 257th connection is closed without a reply")

        // Keep the 256 connections for more than two intervals: rounds go on.
        usleep(2_500_000)
        closed = clients.indices.filter { clients[$0].closedByServer(within: 0) }
        XCTAssertEqual(closed.count, 44, "the 256 idle connections are kept (idle timeout 30 s)")
        for c in clients { c.close() }
        clients = []

        XCTAssertTrue(poll(5) { (try? ServiceHTTP.get(port: serve.port, "/healthz", timeout: 1).status) == 200 },
                      "/healthz answers once the idle connections are gone")
        m = try serve.metrics()
        XCTAssertGreaterThanOrEqual((m.value("pinguard_probes_total") ?? 0) - probesBefore, 2,
                                    "rounds ran while the HTTP connections were held:\n\(serve.stderr)")
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1, serve.stderr)
        XCTAssertTrue(serve.isRunning)
    }

    /// At most 4 /metrics responses are in flight: with 6 clients that asked for a multi-megabyte exposition
    /// and never read, a 7th gets 503 with Retry-After, /healthz stays fast, and /metrics works again once
    /// the stalled clients are gone.
    func testAtMostFourMetricsResponsesInFlight() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-scrapes")
        // 1,500 failed probes judged by 20 policy sets each: several megabytes of exposition without TLS.
        for s in 0..<20 {
            let pins = (0..<3).map { i in
                PinSpec.spki(Data(repeating: UInt8(s * 3 + i + 1), count: 32).base64EncodedString(), role: i == 0 ? "primary" : "backup")
            }
            try PolicyYAML.write(PolicyYAML.policySet(name: "wide-\(s)", rules: [HostPolicySpec(pattern: "**.pinguard.test", pins: pins)]),
                                 to: dir, as: "wide/wide-\(s).yml")
        }
        let closedPort = LoopbackPorts.closed()
        let padding = String(repeating: "x", count: 120)
        let targets = (0..<1_500).map { ServiceWorld.Target(name: "t\($0)-\(padding)", host: "t\($0).pinguard.test", port: closedPort) }
        let config = try writeConfig(w, in: dir, targets: targets, interval: "1h", timeout: "1s", concurrency: 64,
                                     policies: ["wide/*.yml"])
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "30"])
        defer { serve.stop() }
        XCTAssertTrue(poll(20) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)

        let full = try RawClient(port: serve.port)
        XCTAssertTrue(full.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let size = try XCTUnwrap(full.readResponse(timeout: 15), "no /metrics response").bodyBytes
        full.close()
        XCTAssertGreaterThan(size, 6_000_000, "the exposition must exceed what socket buffers hold")

        var stalled: [RawClient] = []
        defer { for c in stalled { c.close() } }
        for _ in 0..<6 {
            let c = try RawClient(port: serve.port, receiveBuffer: 4_096)
            XCTAssertTrue(c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"))
            stalled.append(c)
        }
        var start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 5).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "/healthz waited for /metrics renders")

        usleep(500_000)
        let busy = try RawClient(port: serve.port)
        XCTAssertTrue(busy.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let refused = try XCTUnwrap(busy.readResponse(timeout: 10), "no reply to the 7th GET /metrics")
        busy.close()
        XCTAssertEqual(refused.status, 503, "4 stalled responses are in flight: \(refused)")
        XCTAssertNotNil(refused.headers["retry-after"], "\(refused)")
        XCTAssertLessThan(refused.bodyBytes, 1_000)
        start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 5).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "/healthz is slow while responses are stalled")

        for c in stalled { c.close() }
        stalled = []
        var status = 0
        XCTAssertTrue(poll(5) {
            guard let c = try? RawClient(port: serve.port),
                  c.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                  let reply = c.readResponse(timeout: 15) else { return false }
            status = reply.status
            return reply.status == 200 && reply.bodyBytes > 6_000_000
        }, "/metrics works again once the stalled clients are gone (last status \(status))")
    }

    // MARK: - Reloads

    /// Two reloads at once are applied one after the other, in order: a slow load of v1 (a policy file of
    /// 30,000 pins) that started first does not override the quick load of the newer v2 that came second.
    func testConcurrentReloadsAreSerializedAndTheNewestFileWins() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-reloads")
        var big = "name: big\nenvironments:\n  prod:\n    policies:\n      - pattern: \"big.pinguard.test\"\n        policy:\n          pins:\n"
        for i in 0..<30_000 {
            var bytes = [UInt8](repeating: 0xA5, count: 32)
            withUnsafeBytes(of: UInt32(i).littleEndian) { for (k, b) in $0.enumerated() { bytes[k] = b } }
            big += "            - {type: spki, hash: \"\(Data(bytes).base64EncodedString())\", role: \(i == 0 ? "primary" : "backup")}\n"
        }
        try PolicyYAML.write(big, to: dir, as: "big/big.yml")
        let port = LoopbackPorts.closed()
        func targets(_ n: Int) -> [ServiceWorld.Target] {
            (1...n).map { ServiceWorld.Target(name: "t\($0)", host: "t\($0).pinguard.test", port: port) }
        }
        let config = try writeConfig(w, in: dir, targets: targets(1), interval: "1h", timeout: "1s", policies: [])
        let notify = try NotifySocket()
        defer { notify.stop() }
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle", "--log-events"], mode: .direct,
                                     environment: ["NOTIFY_SOCKET": notify.path], unsetting: ["WATCHDOG_USEC", "WATCHDOG_PID"])
        defer { serve.stop() }

        // v1: slow to load. Its reload runs on another thread while v2 is written and reloaded.
        _ = try writeConfig(w, in: dir, targets: targets(2), interval: "1h", timeout: "1s", policies: ["big/*.yml"])
        let first = ReplyBox()
        let thread = Thread { [port = serve.port] in
            first.set(Result { try ServiceHTTP.request(port: port, method: "POST", path: "/-/reload", timeout: 30) })
        }
        thread.start()
        // RELOADING=1: the first reload started; its thread reads pinguard.yml right away.
        XCTAssertTrue(notify.wait(timeout: 5) { $0.contains { $0.assignments["RELOADING"] == "1" } }, "\(notify.messages.map(\.text))")
        usleep(200_000)
        _ = try writeConfig(w, in: dir, targets: targets(3), interval: "1h", timeout: "1s", policies: [])
        let second = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload", timeout: 30)
        let firstReply = try XCTUnwrap(first.wait(timeout: 30), "the first reload did not answer").get()

        XCTAssertEqual(firstReply.status, 200, "\(firstReply)")
        XCTAssertTrue(firstReply.body.contains("2 targets, 1 policy sets"), "the first reload loaded v1: \(firstReply)")
        XCTAssertEqual(second.status, 200, "\(second)")
        XCTAssertTrue(second.body.contains("3 targets, 0 policy sets"), "the second reload loaded v2: \(second)")
        XCTAssertEqual(try serve.metrics().value("pinguard_targets"), 3, "v2, the newest file, is in force:\n\(serve.stderr)")
        let loadedLines = serve.stderr.split(separator: "\n").filter { $0.contains("[config_loaded]") }
        XCTAssertEqual(loadedLines.count, 3, serve.stderr)
        XCTAssertTrue(loadedLines.last?.contains("3 targets") ?? false, "v2 was applied last: \(loadedLines)")
    }

    /// A reload during a spread round (100 targets, interval 60 s: a probe every 250 ms) takes effect at
    /// once: the new target is probed within a few seconds and the removed ones are no longer launched.
    func testReloadDuringASpreadRoundTakesEffectAtOnce() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-spread")
        let port = LoopbackPorts.closed()
        let old = (1...100).map { ServiceWorld.Target(name: "old\($0)", host: "old\($0).pinguard.test", port: port) }
        let config = try writeConfig(w, in: dir, targets: old, interval: "60s", timeout: "1s")
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(poll(10) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)
        XCTAssertEqual(try serve.metrics().value("pinguard_probes_total"), 100, "the first round, unspread")

        // A reload starts a round of the (unchanged) configuration: spread over 25 s.
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        usleep(1_500_000)
        let spreading = try XCTUnwrap(serve.metrics().value("pinguard_probes_total"))
        XCTAssertGreaterThan(spreading, 101, "a spread round is running")
        XCTAssertLessThan(spreading, 115, "a spread round launches a probe every 250 ms")

        let fresh = ServiceWorld.Target(name: "fresh", host: "fresh.pinguard.test", port: port)
        _ = try writeConfig(w, in: dir, targets: [fresh], interval: "60s", timeout: "1s")
        let reloaded = Date()
        let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
        XCTAssertEqual(reply.status, 200, "\(reply)")
        let atReload = try XCTUnwrap(serve.metrics().value("pinguard_probes_total"))
        let m = try serve.waitForMetrics(timeout: 4) { $0.value("pinguard_probe_timestamp_seconds", ["target": "fresh"]) != nil }
        XCTAssertNotNil(m.value("pinguard_probe_timestamp_seconds", ["target": "fresh"]),
                        "the new target was not probed within 4 s of the reload")
        XCTAssertLessThan(Date().timeIntervalSince(reloaded), 3.5)
        let wait = 3 - Date().timeIntervalSince(reloaded)
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
        let after = try XCTUnwrap(serve.metrics().value("pinguard_probes_total"))
        // Probes launched before the reload still finish (at most `concurrency`, 4), one launch may race the
        // reload, and the new target is probed once; a round that went on would add 4 probes a second.
        XCTAssertLessThanOrEqual(after - atReload, 6,
                                 "the removed targets went on being probed after the reload (\(atReload) → \(after) in 3 s)")
        XCTAssertEqual(try serve.metrics().value("pinguard_targets"), 1)
    }

    /// SIGTERM while two probes hang on a silent peer: exit 0 and no `probe_failed` for the probes it cut short.
    func testSIGTERMMidRoundWritesNoProbeFailed() throws {
        let w = try ServiceWorld.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-sr-sigterm")
        let hangs = (1...2).map { ServiceWorld.Target(name: "hang\($0)", host: "hang\($0).pinguard.test", port: peer.port) }
        let config = try writeConfig(w, in: dir, targets: hangs, interval: "30s", timeout: "10s")
        let serve = try ServeProcess(arguments: ["--config", config, "--log-events"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(poll(10) { peer.acceptedConnections >= 2 }, "both probes reached the silent peer")

        XCTAssertTrue(serve.signal(SIGTERM))
        XCTAssertEqual(serve.waitForExit(timeout: 8), 0, serve.stderr)
        let log = serve.stderr
        XCTAssertTrue(log.contains("[config_loaded]"), "events are echoed on stderr: \(log)")
        XCTAssertFalse(log.contains("[probe_failed]"), "a probe cut short by shutdown is no failure of the server:\n\(log)")
    }

    /// A reload that points an existing target name at another endpoint reports the new endpoint as at
    /// start: no `chain_changed` against the old server, and its decisions, expiry and reserve state in full.
    func testNewEndpointUnderAnOldNameIsReportedAfresh() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-endpoint")
        var x = ServiceWorld.Target(name: "x", host: "valid.pinguard.test", port: w.farm.port)
        let config = try writeConfig(w, in: dir, targets: [x], interval: "1h", timeout: "2s")
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle", "--log-events"], mode: .direct)
        defer { serve.stop() }
        var m = try serve.waitForMetrics(timeout: 10) { $0.value("pinguard_probe_success", ["target": "x"]) == 1 }
        let firstProbe = try XCTUnwrap(m.value("pinguard_probe_timestamp_seconds", ["target": "x"]), serve.stderr)
        XCTAssertTrue(poll(3) { serve.stderr.contains("[pin_matched] x: android-app/prod") }, serve.stderr)

        x.host = "expiring.pinguard.test"
        _ = try writeConfig(w, in: dir, targets: [x], interval: "1h", timeout: "2s")
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        m = try serve.waitForMetrics(timeout: 10) { ($0.value("pinguard_probe_timestamp_seconds", ["target": "x"]) ?? 0) > firstProbe }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "x"]), 1, serve.stderr)
        XCTAssertTrue(poll(3) { serve.stderr.contains("[reserve_pin_missing] x: ") }, serve.stderr)

        let log = serve.stderr
        let reload = try XCTUnwrap(log.range(of: "[config_loaded]", options: .backwards), log)
        let after = String(log[reload.upperBound...])
        XCTAssertFalse(log.contains("[chain_changed]"), "the new endpoint is not compared with the old one:\n\(log)")
        XCTAssertTrue(after.contains("[pin_matched] x: ios-app/prod"), "the new endpoint's decisions are reported:\n\(after)")
        XCTAssertTrue(after.contains("[pin_matched] x: android-app/prod"), after)
        XCTAssertTrue(after.contains("[expiry_warning] x: "), after)
        XCTAssertTrue(after.contains("[reserve_pin_missing] x: ios-app/prod"), after)
    }

    // MARK: - Lint finding keys

    /// Moving a policy file's lines (a comment inserted at the top) and reloading writes no finding again.
    func testLintFindingsAreNotWrittenAgainWhenLinesMove() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-sr-lint-lines")
        try PolicyYAML.write(PolicyYAML.policySet(name: "web-app", rules: [
            HostPolicySpec(pattern: "www.pinguard.test", pins: [.spki(w.validLeafPin, role: "primary")]),
        ]), to: dir, as: "policies/web-app.yml")
        let config = try writeConfig(w, in: dir, targets: [w.healthy], interval: "1s", timeout: "1s")
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle", "--log-events"], mode: .direct)
        defer { serve.stop() }
        _ = try serve.waitForRounds(1, timeout: 10)
        let findings = lintLines(serve.stderr)
        XCTAssertTrue(findings.contains { $0.contains("[no-backup-pin] web-app") }, serve.stderr)

        for name in ["web-app", "ios-app", "android-app"] {
            let url = dir.appendingPathComponent("policies/\(name).yml")
            let text = try String(contentsOf: url, encoding: .utf8)
            try ("# one more line at the top\n" + text).write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        _ = try serve.waitForRounds(1, timeout: 10)
        let log = serve.stderr
        XCTAssertEqual(log.components(separatedBy: "[config_loaded]").count - 1, 2, log)
        XCTAssertEqual(lintLines(log), findings, "findings that only moved down a line are not written again")
    }

    /// The tracker's key ignores day counts: the same expiring pin-set a day later ("in 44 days" instead of
    /// "in 45 days") is not reported again, and neither is the same file with its lines moved.
    func testLintTrackerKeysIgnoreDayCountsAndLines() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let now = Date()
        let text = PolicyYAML.policySet(name: "web-app", rules: [
            HostPolicySpec(pattern: "www.pinguard.test",
                           pins: [.spki(Data(repeating: 1, count: 32).base64EncodedString(), role: "primary"),
                                  .spki(Data(repeating: 2, count: 32).base64EncodedString(), role: "backup")],
                           expires: formatter.string(from: now.addingTimeInterval(45.5 * 86_400))),
        ])
        let set = try PolicyParser.parse(text, file: "web-app.yml")
        var tracker = PolicyLintTracker(listPath: "/nonexistent")
        let first = tracker.update([set], now: now, windowDays: 60)
        let expiring = first.events.filter { $0.field("PINGUARD_RULE") == "pin-set-expiring" }
        XCTAssertEqual(expiring.count, 1, "\(first.events)")

        let tomorrow = now.addingTimeInterval(86_400)
        let messages = { (d: Date) in
            PolicyLinter.lint([set], now: d, publicSuffixes: PublicSuffixList(text: ""), expiringWithinDays: 60).map(\.message)
        }
        XCTAssertNotEqual(messages(now), messages(tomorrow), "the day count in the message changed")
        XCTAssertEqual(tracker.update([set], now: tomorrow, windowDays: 60).events, [], "same finding, one day later")

        let moved = try PolicyParser.parse("# a comment\n\n" + text, file: "web-app.yml")
        let again = tracker.update([moved], now: tomorrow, windowDays: 60)
        XCTAssertEqual(again.events, [], "same finding, two lines further down")
        XCTAssertEqual(again.counts, first.counts)
    }

    /// Findings that differ only in a number other than a day count stay distinct: a second group without a
    /// backup pin ("group 3" after "group 1") is reported although "group 1" was reported before.
    func testLintTrackerKeepsFindingsThatDifferInOtherNumbers() throws {
        func pin(_ byte: UInt8, _ group: String, _ role: String = "primary") -> String {
            "            - {type: spki, hash: \"\(Data(repeating: byte, count: 32).base64EncodedString())\", role: \(role), group: \"\(group)\"}\n"
        }
        func policy(_ pins: String) -> String {
            "name: pay-app\nenvironments:\n  prod:\n    policies:\n      - pattern: pay.pinguard.test\n        policy:\n          match: each_group\n          pins:\n" + pins
        }
        let before = try PolicyParser.parse(policy(pin(1, "1") + pin(2, "2") + pin(3, "2", "backup")), file: "pay.yml")
        let after = try PolicyParser.parse(policy(pin(1, "1") + pin(2, "2") + pin(3, "2", "backup") + pin(4, "3")), file: "pay.yml")
        var tracker = PolicyLintTracker(listPath: "/nonexistent")
        let first = tracker.update([before], now: Date(), windowDays: 30).events.filter { $0.field("PINGUARD_RULE") == "no-backup-pin" }
        XCTAssertEqual(first.count, 1, "\(first)")
        let second = tracker.update([after], now: Date(), windowDays: 30).events.filter { $0.field("PINGUARD_RULE") == "no-backup-pin" }
        XCTAssertEqual(second.count, 1, "the finding for group 3 is new: \(second)")
        XCTAssertTrue(second.first?.message.contains("3") ?? false, "\(second)")
    }

    // MARK: - The demo

    /// The demo removes its folder on exit, and listens on 127.0.0.1:9477 when --listen is not given.
    func testDemoCleansUpAndListensOnLoopback() throws {
        _ = try ServiceWorld.shared()
        let serve = try ServeProcess(arguments: ["--listen", "127.0.0.1:\(LoopbackPorts.free(ipv6: false))"], mode: .noJournal)
        let folder = try XCTUnwrap(Self.demoFolder(serve.stderr), serve.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/pinguard.yml"), folder)
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
        XCTAssertEqual(serve.stop(), 0, serve.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "the demo folder \(folder) is left behind")

        guard Self.portIsFree(9477) else {
            print("testDemoCleansUpAndListensOnLoopback: port 9477 is in use; not checking the demo's default listen address")
            return
        }
        let byDefault: ServeProcess
        do { byDefault = try ServeProcess(arguments: [], mode: .noJournal) } catch let e as HarnessError where e.message.contains("in use") {
            print("testDemoCleansUpAndListensOnLoopback: port 9477 was taken meanwhile; not checking the default listen address")
            return
        }
        let line = byDefault.stderr.split(separator: "\n").first { $0.contains("serving /metrics on ") } ?? ""
        XCTAssertTrue(line.contains("serving /metrics on 127.0.0.1:9477,"), "the demo binds loopback only: \(line)")
        let defaultFolder = Self.demoFolder(byDefault.stderr)
        XCTAssertEqual(byDefault.stop(), 0, byDefault.stderr)
        if let defaultFolder { XCTAssertFalse(FileManager.default.fileExists(atPath: defaultFolder)) }
    }

    // MARK: - Helpers

    /// A config with the world's two policy files (or the given `policies` globs), journal off.
    @discardableResult
    private func writeConfig(_ w: ServiceWorld, in dir: URL, targets: [ServiceWorld.Target], interval: String, timeout: String,
                             concurrency: Int = 4, policies: [String] = ["policies/*.yml"]) throws -> String {
        let policyDir = dir.appendingPathComponent("policies")
        if !FileManager.default.fileExists(atPath: policyDir.appendingPathComponent("ios-app.yml").path) {
            try PolicyYAML.write(w.iosPolicy, to: dir, as: "policies/ios-app.yml")
            try PolicyYAML.write(w.androidPolicy, to: dir, as: "policies/android-app.yml")
        }
        var y = """
        listen: "127.0.0.1:0"
        interval: \(interval)
        timeout: \(timeout)
        concurrency: \(concurrency)
        environment: prod
        expiry_warning_days: 30
        trust: {ca_file: "\(w.pki.caBundle)"}
        policies: [\(policies.map { "\"\($0)\"" }.joined(separator: ", "))]
        journal: {enabled: false}
        targets:

        """
        for t in targets { y += t.yaml }
        return try PolicyYAML.write(y, to: dir, as: "pinguard.yml")
    }

    /// The `[policy_lint_finding]` lines of an --log-events stderr.
    private func lintLines(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains("[policy_lint_finding]") }.map(String.init)
    }

    /// The folder of `config and policies: FOLDER  (...)` in the demo's banner.
    private static func demoFolder(_ log: String) -> String? {
        guard let r = log.range(of: "config and policies: ") else { return nil }
        let rest = log[r.upperBound...]
        let folder = rest.prefix { $0 != " " && $0 != "\n" }
        return folder.isEmpty ? nil : String(folder)
    }

    /// Whether nothing listens on `port` on any IPv4 address.
    private static func portIsFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = UInt16(port).bigEndian
        sa.sin_addr.s_addr = 0
        return withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Polls `condition` every 20 ms for up to `seconds`; whether it held.
    private func poll(_ seconds: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= end { return false }
            usleep(20_000)
        }
        return true
    }
}

/// A raw TCP connection to 127.0.0.1 held by a test: idle, half-sent or never-read requests.
private final class RawClient {
    let fd: Int32
    private var isOpen = true

    /// Connects; `receiveBuffer` sets SO_RCVBUF before connecting (a small window: the server cannot push much).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = UInt16(port).bigEndian
        sa.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let fd = self.fd
        let connected = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            let e = errno
            Glibc.close(fd)
            isOpen = false
            throw HarnessError("connect 127.0.0.1:\(port): \(String(cString: strerror(e)))")
        }
    }

    deinit { close() }

    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    /// Sends all of `text`; false when the connection failed.
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Whether the server closes the connection (end of file or an error) within `timeout` seconds (0: already
    /// closed); bytes it sends meanwhile are read and dropped.
    func closedByServer(within timeout: Double) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = end.timeIntervalSinceNow
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&p, 1, Int32(max(0, left) * 1000))
            if ready > 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n == 0 { return true }
                if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
                continue
            }
            if left <= 0 { return false }
        }
    }

    /// One response: status, headers (names lowercased) and the number of body bytes read (up to
    /// Content-Length); nil when no complete header block arrives within `timeout`.
    func readResponse(timeout: Double) -> (status: Int, headers: [String: String], bodyBytes: Int)? {
        let end = Date().addingTimeInterval(timeout)
        var head: [UInt8] = []
        var parsed: (status: Int, headers: [String: String])?
        var body = 0
        var buffer = [UInt8](repeating: 0, count: 262_144)
        while Date() < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&p, 1, Int32(max(1, end.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            if n <= 0 { break }
            if parsed != nil {
                body += n
            } else {
                head += buffer[0..<n]
                guard let split = Self.headerEnd(head) else { continue }
                let lines = String(decoding: head[..<split], as: UTF8.self).components(separatedBy: "\r\n")
                let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                parsed = (status, headers)
                body = head.count - split - 4
            }
            if let length = parsed?.headers["content-length"].flatMap(Int.init), body >= length { break }
        }
        guard let parsed else { return nil }
        return (parsed.status, parsed.headers, body)
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}

/// This process's open-file limit, and another process's as /proc shows it.
private enum OpenFiles {
    static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

    static func limits() -> rlimit {
        var limit = rlimit()
        _ = getrlimit(resource, &limit)
        return limit
    }

    /// Sets the soft limit (at most the hard one).
    static func setSoft(_ value: rlim_t) {
        var limit = limits()
        limit.rlim_cur = min(value, limit.rlim_max)
        _ = setrlimit(resource, &limit)
    }

    /// `Max open files` of /proc/PID/limits.
    static func ofProcess(_ pid: Int32) throws -> (soft: UInt64, hard: UInt64) {
        let text = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else {
            throw HarnessError("no Max open files in /proc/\(pid)/limits")
        }
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        guard fields.count >= 2, let soft = UInt64(fields[0]), let hard = UInt64(fields[1]) else {
            throw HarnessError("unexpected limits line: \(line)")
        }
        return (soft, hard)
    }
}

/// The reply of a request made on another thread.
private final class ReplyBox: @unchecked Sendable {
    private let lock = NSCondition()
    private var result: Result<HTTPReply, Error>?

    func set(_ r: Result<HTTPReply, Error>) {
        lock.lock()
        result = r
        lock.signal()
        lock.unlock()
    }

    /// Waits up to `timeout` seconds for the reply.
    func wait(timeout: Double) -> Result<HTTPReply, Error>? {
        let end = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while result == nil && lock.wait(until: end) {}
        return result
    }
}
