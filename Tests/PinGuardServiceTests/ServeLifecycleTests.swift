import Foundation
import PinGuardTestSupport
import XCTest

/// Start, readiness, shutdown, a missing journal, and the systemd notify protocol of a real `pinguard serve`.
final class ServeLifecycleTests: XCTestCase {
    /// A probe hanging on a silent peer neither delays readiness reporting nor shutdown: its deadline is ten
    /// minutes, and the service exits on SIGTERM long before (within the two minutes the test waits at most).
    func testSIGTERMEndsWithoutWaitingForAHangingProbe() throws {
        let w = try ServiceWorld.privileged(for: "shutdown by SIGTERM with a private journald taking events")
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-hang")
        let hang = ServiceWorld.Target(name: "hang", host: "hang.pinguard.test", port: peer.port)
        let config = try w.writeConfig(in: dir, targets: [w.healthy, hang], interval: "1h", timeout: "10m", journal: true)
        let serve = try ServeProcess(arguments: ["--config", config])
        defer { serve.stop() }

        _ = Polling.holds(within: 60) { peer.acceptedConnections > 0 }
        XCTAssertEqual(peer.acceptedConnections, 1, "the probe reached the silent peer")
        // The first round cannot finish before the hanging probe's deadline: not ready yet, but alive.
        let notReady = try ServiceHTTP.get(port: serve.port, "/-/ready")
        XCTAssertEqual(notReady.status, 503, "\(notReady)")
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
        let m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "healthy"]) != nil }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1, "finished probes are reported at once")
        XCTAssertTrue(m.samples(target: "hang").isEmpty)

        // Waiting for the probe would take its ten minutes; the two minutes here only stop a hang.
        XCTAssertTrue(serve.signal(SIGTERM))
        XCTAssertEqual(serve.waitForExit(timeout: 120), 0, "exited before the hanging probe's deadline: \(serve.stderr)")
        XCTAssertEqual(peer.acceptedConnections, 1, "the probe was still the one hanging")
    }

    /// Without a journal socket the service keeps serving, counts the failed writes, says so once at start and
    /// writes the events to stderr instead.
    func testNoJournalKeepsServingAndCountsFailures() throws {
        let w = try ServiceWorld.privileged(for: "a host without a journal socket (with-journald.sh --no-journal)")
        let dir = try TemporaryDirectory.make("pinguard-svc-nojournal")
        let config = try w.writeConfig(in: dir, targets: [w.healthy, w.rotated], journal: true)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .noJournal)
        defer { serve.stop() }
        // Both targets judged: the failures counted are then at least their events, not only the start-up ones.
        let m = try serve.waitForMetrics {
            ($0.value("pinguard_journal_write_failures_total") ?? 0) >= 4 && $0.value("pinguard_probe_success", ["target": "healthy"]) != nil
                && $0.value("pinguard_policy_accept", ["target": "rotated", "policy_set": "ios-app", "environment": "prod"]) != nil
        }
        // At least config_loaded, pin_matched x2 (healthy), pin_mismatch + pin_matched (rotated).
        XCTAssertGreaterThanOrEqual(m.value("pinguard_journal_write_failures_total") ?? 0, 4)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1)
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": "rotated", "policy_set": "ios-app", "environment": "prod"]), 0)
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
        let said = "no journald socket at /run/systemd/journal/socket: journal events go to stderr instead"
        XCTAssertEqual(serve.stderr.components(separatedBy: said).count - 1, 1, "said once, at start:\n\(serve.stderr)")
        XCTAssertLessThan(serve.stderr.range(of: said)?.lowerBound ?? serve.stderr.endIndex,
                          serve.stderr.range(of: "[config_loaded]")?.lowerBound ?? serve.stderr.startIndex, "before the first event")
        for event in ["[config_loaded]", "[pin_mismatch] rotated", "[pin_matched] healthy"] {
            XCTAssertTrue(serve.stderr.contains("pinguard: \(event)"), "every event is on stderr, not lost: \(event)\n\(serve.stderr)")
        }
        XCTAssertFalse(serve.stderr.contains("so far"), "no failure line per event")
        _ = try serve.waitForRounds(1)
        XCTAssertTrue(serve.isRunning)
        XCTAssertEqual(serve.stop(), 0, serve.stderr)
    }

    /// journald dying under a running service (a stale socket: ECONNREFUSED) is counted the same way.
    func testJournaldDyingUnderTheServiceIsCounted() throws {
        let w = try ServiceWorld.privileged(for: "a private journald to kill under the service")
        let dir = try TemporaryDirectory.make("pinguard-svc-stale-journal")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], journal: true)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"])
        defer { serve.stop() }
        var m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "healthy"]) == 1 }
        XCTAssertEqual(m.value("pinguard_journal_write_failures_total"), 0)
        // The wrapper tells its command journald's PID; it is a process this test started, through the wrapper.
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(serve.pid)/environ"))
        let journaldPID = try XCTUnwrap(environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            .first { $0.hasPrefix("WITH_JOURNALD_PID=") }.flatMap { Int32($0.dropFirst("WITH_JOURNALD_PID=".count)) })
        XCTAssertEqual(kill(journaldPID, SIGKILL), 0)
        // A reload writes config_loaded: it cannot be delivered.
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        m = try serve.waitForMetrics { ($0.value("pinguard_journal_write_failures_total") ?? 0) >= 1 }
        XCTAssertGreaterThanOrEqual(m.value("pinguard_journal_write_failures_total") ?? 0, 1, serve.stderr)
        XCTAssertTrue(serve.stderr.contains("journal write failed (Connection refused): journal events go to stderr instead"), serve.stderr)
        XCTAssertTrue(serve.stderr.contains("pinguard: [config_loaded]"), "the undelivered event is on stderr: \(serve.stderr)")
        _ = try serve.waitForRounds(1)
        XCTAssertEqual(serve.stop(), 0, serve.stderr)
    }

    /// READY, STATUS, WATCHDOG, RELOADING and STOPPING reach the NOTIFY_SOCKET, as systemd's Type=notify-reload expects.
    func testSystemdNotifyProtocol() throws {
        let w = try ServiceWorld.direct()
        let notify = try NotifySocket()
        defer { notify.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-notify")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], journal: false)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct,
                                     environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "6000000"],
                                     unsetting: ["WATCHDOG_PID"])
        defer { serve.stop() }

        XCTAssertTrue(notify.wait(timeout: 60) { $0.contains { $0.assignments["READY"] == "1" } }, "\(notify.messages.map(\.text))")
        let ready = try XCTUnwrap(notify.messages(assigning: "READY").first)
        XCTAssertTrue(ready.assignments["STATUS"]?.contains("serving on 127.0.0.1:\(serve.port)") ?? false, ready.text)
        XCTAssertTrue(notify.wait(timeout: 60) { $0.contains { $0.assignments["STATUS"]?.hasPrefix("last round: 1 targets") ?? false } },
                      "\(notify.messages.map(\.text))")
        // WATCHDOG_USEC=6 s: a ping every 3 s, so that a ping delayed by a loaded machine still comes within the
        // interval, systemd's own bound (it kills a service that misses it).
        XCTAssertTrue(notify.wait(timeout: 60) { $0.filter { $0.assignments["WATCHDOG"] == "1" }.count >= 3 }, "\(notify.messages.map(\.text))")
        let pings = notify.messages(assigning: "WATCHDOG").map(\.received)
        for (a, b) in zip(pings, pings.dropFirst()) {
            XCTAssertLessThan(b.timeIntervalSince(a), 6, "pings must come within the 6 s watchdog interval")
        }

        let beforeReload = notify.messages.count
        XCTAssertTrue(serve.signal(SIGHUP))
        XCTAssertTrue(notify.wait(timeout: 60) { m in
            let after = m.dropFirst(beforeReload)
            guard let r = after.firstIndex(where: { $0.assignments["RELOADING"] == "1" }) else { return false }
            return after[r...].contains { $0.assignments["READY"] == "1" }
        }, "RELOADING=1 then READY=1: \(notify.messages.dropFirst(beforeReload).map(\.text))")
        let reloading = try XCTUnwrap(notify.messages(assigning: "RELOADING").last)
        XCTAssertNotNil(reloading.assignments["MONOTONIC_USEC"].flatMap(UInt64.init), reloading.text)

        XCTAssertTrue(serve.signal(SIGTERM))
        XCTAssertEqual(serve.waitForExit(timeout: 120), 0, serve.stderr)
        XCTAssertTrue(notify.wait(timeout: 60) { $0.contains { $0.assignments["STOPPING"] == "1" } }, "\(notify.messages.map(\.text))")
        let stopping = try XCTUnwrap(notify.messages(assigning: "STOPPING").last)
        XCTAssertFalse(notify.messages.contains { $0.received > stopping.received && $0.assignments["WATCHDOG"] != nil },
                       "no watchdog ping after STOPPING=1")
    }
}
