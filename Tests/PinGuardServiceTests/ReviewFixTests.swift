import Foundation
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// Service fixes of the review, each on a real `pinguard serve`: the round schedule, what a reload keeps,
/// how quickly it answers, the probe pool it sizes, and which journal events it writes.
final class ReviewFixTests: XCTestCase {
    /// One round per interval, counted from each round's start: a round lasting ~1 s (a silent peer with
    /// timeout 1 s) under interval 2 s gives rounds 2 s apart, not 3 s (interval + round duration).
    func testRoundsStartOneIntervalApart() throws {
        let w = try ServiceWorld.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-schedule")
        let hang = ServiceWorld.Target(name: "hang", host: "hang.pinguard.test", port: peer.port)
        let config = try writeConfig(w, in: dir, targets: [hang, w.healthy], interval: "2s", timeout: "1s")
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct)
        defer { serve.stop() }

        var stamps: [Double] = []
        var durations: [Double] = []
        let end = Date().addingTimeInterval(12)
        while stamps.count < 3 && Date() < end {
            if let m = try? serve.metrics(), let t = m.value("pinguard_round_timestamp_seconds"), stamps.last != t {
                stamps.append(t)
                durations.append(m.value("pinguard_round_duration_seconds") ?? 0)
            }
            usleep(50_000)
        }
        XCTAssertEqual(stamps.count, 3, "three rounds within 12 s: \(stamps)\n\(serve.stderr)")
        for d in durations { XCTAssertGreaterThanOrEqual(d, 0.9, "each round waits for the silent peer: \(durations)") }
        let periods = zip(stamps.dropFirst(), stamps).map { $0 - $1 }
        for p in periods {
            XCTAssertGreaterThan(p, 1.7, "rounds must not come faster than the interval: \(periods)")
            XCTAssertLessThan(p, 2.6, "rounds must start one interval apart, not interval + round duration: \(periods)")
        }
    }

    /// A reload judges the results it keeps by the new policies at once: a policy set removed from a target
    /// (and from the loaded files) leaves no series behind, and a target whose endpoint changed under the
    /// same name has its old series dropped, before any new probe ran (the next round is stuck on a silent
    /// peer first, with one probe at a time).
    func testReloadRejudgesKeptResultsAndDropsChangedEndpoints() throws {
        let w = try ServiceWorld.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-rejudge")
        let hang = ServiceWorld.Target(name: "hang", host: "hang.pinguard.test", port: peer.port)
        var healthy = w.healthy
        healthy.policySets = ["ios-app", "android-app"]
        var moved = w.backup
        moved.name = "moved"
        let config = try writeConfig(w, in: dir, targets: [hang, healthy, moved], interval: "1h", timeout: "1s", concurrency: 1)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        let both = ["target": "healthy", "environment": "prod"]
        var m = try serve.waitForMetrics(timeout: 10) {
            $0.value("pinguard_policy_accept", both.merging(["policy_set": "android-app"]) { $1 }) == 1
                && $0.value("pinguard_probe_success", ["target": "moved"]) == 1
        }
        XCTAssertEqual(m.value("pinguard_policy_accept", both.merging(["policy_set": "ios-app"]) { $1 }), 1, serve.stderr)
        XCTAssertEqual(m.value("pinguard_policy_accept", both.merging(["policy_set": "android-app"]) { $1 }), 1)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "moved"]), 1)
        let probedAt = try XCTUnwrap(m.value("pinguard_probe_timestamp_seconds", ["target": "healthy"]))

        // `healthy` keeps ios-app only, android-app is no longer loaded, `moved` points elsewhere.
        healthy.policySets = ["ios-app"]
        moved.port = LoopbackPorts.closed()
        _ = try writeConfig(w, in: dir, targets: [hang, healthy, moved], interval: "1h", timeout: "1s", concurrency: 1)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("policies/android-app.yml"))
        let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
        XCTAssertEqual(reply.status, 200, "\(reply)")
        m = try serve.metrics()

        XCTAssertEqual(m.value("pinguard_probe_timestamp_seconds", ["target": "healthy"]), probedAt,
                       "no new probe of healthy yet: what follows is the kept result, re-judged")
        XCTAssertEqual(m.samples.filter { $0.labels["policy_set"] == "android-app" }, [],
                       "no series of the removed set survives the reload")
        XCTAssertEqual(m.value("pinguard_policy_accept", both.merging(["policy_set": "ios-app"]) { $1 }), 1)
        XCTAssertEqual(m.value("pinguard_policy_decision_info", both.merging(["policy_set": "ios-app", "reason": "pin_match"]) { $1 }), 1)
        XCTAssertFalse(m.samples("pinguard_pin_matched", ["target": "healthy", "policy_set": "ios-app"]).isEmpty)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1)
        XCTAssertEqual(m.samples(target: "moved"), [], "the old endpoint's series are dropped under the same name")
        XCTAssertEqual(m.value("pinguard_targets"), 3)

        // The new round then probes the new endpoint.
        m = try serve.waitForMetrics(timeout: 5) { $0.value("pinguard_probe_success", ["target": "moved"]) != nil }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "moved"]), 0, serve.stderr)
    }

    /// With one probe at a time and every probe hanging for 3 s, `POST /-/reload` still answers at once:
    /// the reload does not queue behind the probes.
    func testReloadAnswersPromptlyWhileProbesHang() throws {
        let w = try ServiceWorld.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-reload-busy")
        let targets = (1...3).map { ServiceWorld.Target(name: "hang\($0)", host: "hang\($0).pinguard.test", port: peer.port) }
        let config = try writeConfig(w, in: dir, targets: targets, interval: "30s", timeout: "3s", concurrency: 1)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        let accepted = Date().addingTimeInterval(10)
        while peer.acceptedConnections == 0 && Date() < accepted { usleep(10_000) }
        XCTAssertEqual(peer.acceptedConnections, 1, "a probe hangs on the silent peer")

        let start = Date()
        let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload", timeout: 8)
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(reply.status, 200, "\(reply)")
        XCTAssertTrue(reply.body.contains("3 targets"), reply.body)
        XCTAssertLessThan(took, 1.5, "the reload waited \(took) s for a probe to finish")
        XCTAssertEqual(peer.acceptedConnections, 1, "still the first probe: the reload did not wait for it")
    }

    /// A first round cut short by a reload is not a round: /-/ready stays 503 and no round timestamp is
    /// exported until a round has probed every target; the next round starts with the targets never probed.
    func testRoundCutShortByAReloadIsNotCounted() throws {
        let w = try ServiceWorld.shared()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-cut")
        let hang = ServiceWorld.Target(name: "hang", host: "hang.pinguard.test", port: peer.port)
        let config = try writeConfig(w, in: dir, targets: [hang, w.healthy], interval: "1h", timeout: "2s", concurrency: 1)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(poll(10) { peer.acceptedConnections == 1 }, "the first round is probing the silent peer")
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        // The cut round ends when the hanging probe times out (2 s); until a full round, not ready.
        usleep(2_500_000)
        let early = try ServiceHTTP.request(port: serve.port, method: "GET", path: "/-/ready")
        let metrics = try ServiceHTTP.request(port: serve.port, method: "GET", path: "/metrics").body
        if early.status == 503 {
            XCTAssertFalse(metrics.contains("\npinguard_round_timestamp_seconds "), "a cut round exported a round timestamp")
        } else {
            // Only possible once the reload's full round (healthy first, then the 2 s hang) has finished.
            XCTAssertTrue(metrics.contains("pinguard_probe_success{target=\"\(w.healthy.name)\"} 1"), metrics)
        }
        XCTAssertTrue(metrics.contains("pinguard_probe_success{target=\"\(w.healthy.name)\"}"),
                      "the reload's round probed the never-probed target first")
        XCTAssertTrue(poll(8) { (try? ServiceHTTP.request(port: serve.port, method: "GET", path: "/-/ready").status) == 200 },
                      "ready after a full round: \(serve.stderr)")
    }

    /// A reload that raises `concurrency` resizes the probe pool: the next round runs the probes side by side.
    func testReloadResizesTheProbePool() throws {
        let w = try ServiceWorld.shared()
        let first = try HostilePeer(.silent)
        defer { first.stop() }
        let second = try HostilePeer(.silent)
        defer { second.stop() }
        let dir = try TemporaryDirectory.make("pinguard-rf-pool")
        let targets = [ServiceWorld.Target(name: "a", host: "a.pinguard.test", port: first.port),
                       ServiceWorld.Target(name: "b", host: "b.pinguard.test", port: second.port)]
        let config = try writeConfig(w, in: dir, targets: targets, interval: "1h", timeout: "1s", concurrency: 1)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(poll(10) { first.acceptedConnections == 1 }, "the first round reached the first peer")

        _ = try writeConfig(w, in: dir, targets: targets, interval: "1h", timeout: "1s", concurrency: 2)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        // The reload stops the round in progress from launching more probes; the reload's round follows,
        // least recently probed first: b (never probed) and a again, side by side on the larger pool.
        let secondBefore = second.acceptedConnections
        var firstAt: Date?
        var secondAt: Date?
        let until = Date().addingTimeInterval(8)
        while (firstAt == nil || secondAt == nil) && Date() < until {
            if firstAt == nil && first.acceptedConnections >= 2 { firstAt = Date() }
            if secondAt == nil && second.acceptedConnections > secondBefore { secondAt = Date() }
            usleep(5_000)
        }
        XCTAssertNotNil(firstAt, "the reload's round probed a again: \(serve.stderr)")
        XCTAssertNotNil(secondAt, "the reload's round probed b: \(serve.stderr)")
        let gap = abs((firstAt ?? .distantFuture).timeIntervalSince(secondAt ?? .distantPast))
        // Probes start 250 ms apart in a spread round; with one pool thread the second would wait 1 s.
        XCTAssertLessThan(gap, 0.7, "the second probe waited \(gap) s for a free pool thread")
    }

    /// Lint findings are written to the journal once: reloads of an unchanged configuration and later rounds
    /// add none, while `pinguard_policy_lint_findings` keeps a series for every loaded set and severity, zeros
    /// included. The lint window is `expiry_warning_days`. A reload to `journal: {enabled: false}` stops writes.
    func testLintFindingsAreWrittenOnceAndJournalEnabledFollowsReloads() throws {
        let w = try ServiceWorld.shared()
        let dir = try TemporaryDirectory.make("pinguard-rf-lint")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let expires = formatter.string(from: Date().addingTimeInterval(45 * 86_400))
        // Expires within 60 days (the config's window) but not within lint's default 30.
        try PolicyYAML.write(PolicyYAML.policySet(name: "web-app", rules: [
            HostPolicySpec(pattern: "www.pinguard.test", pins: [.spki(w.validLeafPin, role: "primary"), .spki(w.reservePin, role: "backup")],
                           expires: expires),
        ]), to: dir, as: "policies/web-app.yml")
        let window = { (text: String) in text.replacingOccurrences(of: "expiry_warning_days: 30", with: "expiry_warning_days: 60") }
        let config = try writeConfig(w, in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: true, edit: window)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"])
        defer { serve.stop() }
        _ = try serve.waitForRounds(1, timeout: 10)

        let m = try serve.metrics()
        let sets = ["android-app", "ios-app", "web-app"]
        let lint = m.samples("pinguard_policy_lint_findings")
        XCTAssertEqual(Set(lint.map { "\($0.labels["policy_set"] ?? "?")/\($0.labels["severity"] ?? "?")" }),
                       Set(sets.flatMap { s in ["error", "warning", "info"].map { "\(s)/\($0)" } }), "\(lint)")
        XCTAssertEqual(lint.count, 9, "one series per set and severity: \(lint)")
        XCTAssertTrue(lint.contains { $0.value == 0 }, "zero counts are series too: \(lint)")
        XCTAssertGreaterThanOrEqual(m.value("pinguard_policy_lint_findings", ["policy_set": "web-app", "severity": "warning"]) ?? 0, 1,
                                    "pin-set-expiring within expiry_warning_days")
        let total = lint.reduce(0) { $0 + $1.value }

        var journal = try serve.waitForJournal { $0.events("policy_lint_finding").count >= Int(total) }
        let findings = journal.events("policy_lint_finding")
        XCTAssertGreaterThan(findings.count, 0)
        XCTAssertEqual(Double(findings.count), total, "one event per finding: \(findings)")
        XCTAssertEqual(journal.events("policy_lint_finding", ["PINGUARD_POLICY_SET": "web-app", "PINGUARD_RULE": "pin-set-expiring"]).count, 1,
                       "\(findings)")
        XCTAssertEqual(journal.events("config_loaded").count, 1)

        for _ in 0..<2 {
            let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
            XCTAssertEqual(reply.status, 200, "\(reply)")
        }
        _ = try serve.waitForRounds(1, timeout: 10)
        journal = try serve.waitForJournal { $0.events("config_loaded").count >= 3 }
        XCTAssertEqual(journal.events("config_loaded").count, 3)
        XCTAssertEqual(journal.events("policy_lint_finding").count, findings.count,
                       "unchanged findings are not written again by reloads or rounds")
        XCTAssertEqual(try serve.metrics().samples("pinguard_policy_lint_findings").count, 9)

        // journal.enabled: false takes effect with the reload that sets it: not even its config_loaded is written.
        _ = try writeConfig(w, in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: false, edit: window)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        _ = try serve.waitForRounds(1, timeout: 10)
        journal = try serve.journalEntries()
        XCTAssertEqual(journal.events("config_loaded").count, 3, "\(journal.events("config_loaded"))")
        XCTAssertEqual(try serve.metrics().value("pinguard_journal_write_failures_total"), 0)
    }

    // MARK: helpers

    /// `ServiceWorld.writeConfig` with `concurrency` and any further `edit` of the text.
    @discardableResult
    private func writeConfig(_ w: ServiceWorld, in dir: URL, targets: [ServiceWorld.Target], interval: String, timeout: String,
                             concurrency: Int = 4, journal: Bool = false, edit: (String) -> String = { $0 }) throws -> String {
        let path = try w.writeConfig(in: dir, targets: targets, interval: interval, timeout: timeout, journal: journal)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = edit(text.replacingOccurrences(of: "concurrency: 4", with: "concurrency: \(concurrency)"))
        XCTAssertTrue(changed.contains("concurrency: \(concurrency)"))
        if changed != text { try changed.write(toFile: path, atomically: true, encoding: .utf8) }
        return path
    }

    /// Polls `condition` every 10 ms for up to `seconds`; whether it held.
    private func poll(_ seconds: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= end { return false }
            usleep(10_000)
        }
        return true
    }
}
