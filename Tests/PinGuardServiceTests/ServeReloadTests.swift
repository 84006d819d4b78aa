import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// Reloads of a running `pinguard serve` by SIGHUP and `POST /-/reload`: a bad file keeps the running
/// configuration, a good one takes effect within a round (docs/reference.md, Configuration).
final class ServeReloadTests: XCTestCase {
    func testBadConfigIsRejectedAndAGoodOneTakesEffect() throws {
        let w = try ServiceWorld.privileged(for: "reads config_invalid and config_loaded back from a private journald")
        let dir = try TemporaryDirectory.make("pinguard-svc-reload")
        let config = try w.writeConfig(in: dir, targets: [w.healthy, w.backup], journal: true)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"])
        defer { serve.stop() }
        var m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "backup"]) == 1 }
        XCTAssertEqual(m.value("pinguard_config_last_reload_successful"), 1)
        let firstSuccess = try XCTUnwrap(m.value("pinguard_config_last_reload_success_timestamp_seconds"))

        // Garbage, by SIGHUP.
        try "targets: [this is: not: yaml\n\t{{{\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertTrue(serve.signal(SIGHUP))
        m = try serve.waitForMetrics { $0.value("pinguard_config_last_reload_successful") == 0 }
        XCTAssertEqual(m.value("pinguard_config_last_reload_successful"), 0, serve.stderr)
        XCTAssertEqual(m.value("pinguard_config_last_reload_success_timestamp_seconds"), firstSuccess)
        var journal = try serve.waitForJournal { $0.events("config_invalid").count == 1 }
        let invalid = try XCTUnwrap(journal.events("config_invalid").first)
        XCTAssertEqual(invalid["MESSAGE_ID"], JournalEvent.configInvalid.messageID)
        XCTAssertEqual(invalid["PRIORITY"], "3")
        XCTAssertEqual(invalid["PINGUARD_CONFIG"], config)
        XCTAssertTrue(invalid["PINGUARD_ERROR"]?.contains(config) ?? false, "the error names the file: \(invalid)")
        XCTAssertTrue(serve.stderr.contains("reload (SIGHUP) rejected"), serve.stderr)

        // The old targets are still probed.
        let before = try XCTUnwrap(m.value("pinguard_probe_timestamp_seconds", ["target": "healthy"]))
        m = try serve.waitForMetrics { ($0.value("pinguard_probe_timestamp_seconds", ["target": "healthy"]) ?? 0) > before }
        XCTAssertGreaterThan(m.value("pinguard_probe_timestamp_seconds", ["target": "healthy"]) ?? 0, before)
        XCTAssertEqual(m.value("pinguard_targets"), 2)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "backup"]), 1)

        // Still garbage, by POST: refused with a 4xx that says why.
        let post = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
        XCTAssertEqual(post.status, 400, "\(post)")
        XCTAssertTrue(post.body.contains("previous configuration kept"), post.body)
        XCTAssertTrue(post.body.contains(config), post.body)

        // Well-formed YAML with an unknown key: refused, naming the key.
        try w.writeConfig(in: dir, targets: [w.healthy, w.backup], journal: true)
        try (String(contentsOfFile: config, encoding: .utf8) + "bogus_key: 1\n").write(toFile: config, atomically: true, encoding: .utf8)
        let unknownKey = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
        XCTAssertEqual(unknownKey.status, 400, "\(unknownKey)")
        XCTAssertTrue(unknownKey.body.contains("bogus_key"), unknownKey.body)
        journal = try serve.waitForJournal { $0.events("config_invalid").count == 3 }
        XCTAssertEqual(journal.events("config_invalid").count, 3)
        XCTAssertEqual(journal.events("config_loaded").count, 1)
        XCTAssertEqual(try serve.metrics().value("pinguard_config_last_reload_successful"), 0)

        // A good config by SIGHUP: adds `expiring`, removes `backup`, and makes the interval an hour: the next full
        // round is an hour away, so `expiring` showing up at all (within the minute waited at most) is the catch-up
        // the reload starts at once.
        try w.writeConfig(in: dir, targets: [w.healthy, w.expiring], interval: "1h", journal: true)
        XCTAssertTrue(serve.signal(SIGHUP))
        m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "expiring"]) != nil }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "expiring"]), 1, "a reload starts a round at once: \(serve.stderr)")
        XCTAssertEqual(m.samples(target: "backup"), [], "series of a removed target are gone")
        XCTAssertEqual(m.value("pinguard_config_last_reload_successful"), 1)
        XCTAssertGreaterThan(m.value("pinguard_config_last_reload_success_timestamp_seconds") ?? 0, firstSuccess)
        XCTAssertEqual(m.value("pinguard_targets"), 2)
        XCTAssertEqual(m.value("pinguard_backup_pin_coverage_ratio", ["policy_set": "ios-app", "environment": "prod"]), 0.5,
                       "healthy has a reserve pin, expiring has none")
        journal = try serve.waitForJournal { $0.events("config_loaded").count == 2 && !$0.events("expiry_warning").isEmpty }
        XCTAssertEqual(journal.events("config_loaded").last?["PINGUARD_TARGETS"], "2")
        XCTAssertEqual(journal.events("expiry_warning", ["PINGUARD_TARGET": "expiring"]).count, 1)
        XCTAssertEqual(journal.events("pin_matched", ["PINGUARD_TARGET": "healthy"]).count, 2,
                       "a target kept across the reload is not announced again (one event per policy set)")

        // A good config by POST: `backup` comes back and is announced again, as at start.
        try w.writeConfig(in: dir, targets: [w.healthy, w.expiring, w.backup], interval: "1h", journal: true)
        let ok = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload")
        XCTAssertEqual(ok.status, 200, "\(ok)")
        XCTAssertTrue(ok.body.contains("3 targets"), ok.body)
        m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "backup"]) != nil }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "backup"]), 1)
        XCTAssertEqual(m.value("pinguard_targets"), 3)
        journal = try serve.waitForJournal { $0.events("backup_pin_in_use").count == 2 }
        XCTAssertEqual(journal.events("backup_pin_in_use").count, 2)
        XCTAssertEqual(journal.events("config_loaded").count, 3)

        XCTAssertEqual(serve.stop(), 0, serve.stderr)
    }
}
