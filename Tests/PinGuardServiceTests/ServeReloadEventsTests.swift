import Foundation
import PinGuardTestSupport
import XCTest

/// Which events a real `pinguard serve` writes around reloads: a lint finding once, not again after reloads,
/// later rounds or lines moved in its file; a new endpoint under an old target name reported as at start;
/// nothing at all from the reload that sets `journal: {enabled: false}`.
final class ServeReloadEventsTests: XCTestCase {
    /// Lint findings are written to the journal once: reloads of an unchanged configuration and later rounds
    /// add none, while `pinguard_policy_lint_findings` keeps a series for every loaded set and severity, zeros
    /// included. The lint window is `expiry_warning_days`. A reload to `journal: {enabled: false}` stops writes.
    func testLintFindingsAreWrittenOnceAndJournalEnabledFollowsReloads() throws {
        let w = try ServiceWorld.privileged(for: "reads policy_lint_finding and config_loaded back from a private journald")
        let dir = try TemporaryDirectory.make("pinguard-svc-lint-once")
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
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: true, expiryWarningDays: 60)
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
        try w.writeConfig(in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: false, expiryWarningDays: 60)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        _ = try serve.waitForRounds(1, timeout: 10)
        journal = try serve.journalEntries()
        XCTAssertEqual(journal.events("config_loaded").count, 3, "\(journal.events("config_loaded"))")
        XCTAssertEqual(try serve.metrics().value("pinguard_journal_write_failures_total"), 0)
    }

    /// Moving a policy file's lines (a comment inserted at the top) and reloading writes no finding again.
    func testLintFindingsAreNotWrittenAgainWhenLinesMove() throws {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-svc-lint-lines")
        try PolicyYAML.write(PolicyYAML.policySet(name: "web-app", rules: [
            HostPolicySpec(pattern: "www.pinguard.test", pins: [.spki(w.validLeafPin, role: "primary")]),
        ]), to: dir, as: "policies/web-app.yml")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle", "--log-events"], mode: .direct)
        defer { serve.stop() }
        _ = try serve.waitForRounds(1, timeout: 10)
        let findings = ServeLog.eventLines("policy_lint_finding", in: serve.stderr)
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
        XCTAssertEqual(ServeLog.eventLines("policy_lint_finding", in: log), findings,
                       "findings that only moved down a line are not written again")
    }

    /// A reload that points an existing target name at another endpoint reports the new endpoint as at
    /// start: no `chain_changed` against the old server, and its decisions, expiry and reserve state in full.
    func testNewEndpointUnderAnOldNameIsReportedAfresh() throws {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-svc-endpoint")
        var x = ServiceWorld.Target(name: "x", host: "valid.pinguard.test", port: w.farm.port)
        let config = try w.writeConfig(in: dir, targets: [x], interval: "1h", timeout: "2s", journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle", "--log-events"], mode: .direct)
        defer { serve.stop() }
        var m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "x"]) == 1 }
        let firstProbe = try XCTUnwrap(m.value("pinguard_probe_timestamp_seconds", ["target": "x"]), serve.stderr)
        XCTAssertTrue(Polling.holds(within: 60) { serve.stderr.contains("[pin_matched] x: android-app/prod") }, serve.stderr)

        x.host = "expiring.pinguard.test"
        try w.writeConfig(in: dir, targets: [x], interval: "1h", timeout: "2s", journal: false)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        m = try serve.waitForMetrics { ($0.value("pinguard_probe_timestamp_seconds", ["target": "x"]) ?? 0) > firstProbe }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "x"]), 1, serve.stderr)
        XCTAssertTrue(Polling.holds(within: 60) { serve.stderr.contains("[reserve_pin_missing] x: ") }, serve.stderr)

        let log = serve.stderr
        let reload = try XCTUnwrap(log.range(of: "[config_loaded]", options: .backwards), log)
        let after = String(log[reload.upperBound...])
        XCTAssertFalse(log.contains("[chain_changed]"), "the new endpoint is not compared with the old one:\n\(log)")
        XCTAssertTrue(after.contains("[pin_matched] x: ios-app/prod"), "the new endpoint's decisions are reported:\n\(after)")
        XCTAssertTrue(after.contains("[pin_matched] x: android-app/prod"), after)
        XCTAssertTrue(after.contains("[expiry_warning] x: "), after)
        XCTAssertTrue(after.contains("[reserve_pin_missing] x: ios-app/prod"), after)
    }
}
