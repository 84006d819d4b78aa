import Foundation
import PinGuardTestSupport
import XCTest

/// Name resolution under a name server that never answers: each lookup ends at the probe's deadline, and
/// lookups run on glibc's bounded resolver pool (getaddrinfo_a), not on a thread each.
final class ResolutionDeadlineTests: XCTestCase {
    func testALookupThatNeverAnswersEndsAtTheDeadline() throws {
        _ = try ServiceWorld.privileged(for: "a private /etc/resolv.conf naming a silent name server")
        let dns = try SilentNameServer()
        defer { dns.stop() }
        // glibc's longest wait: 30 s a try, 5 tries. A probe the resolver held would outlast the two minutes the
        // command is given, which only stop a hang; one that ends on its own ended at its 1 s deadline.
        let patient = dns.resolvConf.deletingLastPathComponent().appendingPathComponent("patient-resolv.conf")
        try "nameserver \(SilentNameServer.address)\noptions timeout:30 attempts:5\n".write(to: patient, atomically: true, encoding: .utf8)
        let binary = try XCTUnwrap(PinguardCLI.binary)
        let r = try CommandRunner.run(ServeProcess.wrapper, ["--no-journal", "--resolv-conf", patient.path, binary,
                                                             "probe", "hang.pinguard.test", "--timeout", "1s"], timeout: 120)
        XCTAssertFalse(r.timedOut, "the resolver's own 30 s x 5 tries held the probe: \(r)")
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue((r.stdout + r.stderr).contains("resolve hang.pinguard.test: timeout after 1s"), "\(r)")
    }

    func testManyHangingLookupsKeepTheThreadCountBounded() throws {
        let world = try ServiceWorld.privileged(for: "a private /etc/resolv.conf naming a silent name server")
        let dns = try SilentNameServer()
        defer { dns.stop() }
        let dir = try TemporaryDirectory.make("pinguard-hang")
        let targets = (1...80).map { ServiceWorld.Target(name: "h\($0)", host: "h\($0).hang.pinguard.test", port: 443, connect: nil) }
        let config = try world.writeConfig(in: dir, targets: targets, interval: "2s", timeout: "1s", concurrency: 64)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .noJournal, resolvConf: dns.resolvConf.path)
        defer { serve.stop() }
        // Three rounds of 80 lookups that each hang for the resolver's 10 s: one thread per lookup would
        // pile up hundreds of threads.
        let m = try serve.waitForMetrics { ($0.value("pinguard_probes_total") ?? 0) >= 240 }
        XCTAssertGreaterThanOrEqual(m.value("pinguard_probes_total") ?? 0, 240, serve.stderr)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "h1"]), 0)
        let threads = try XCTUnwrap(m.value("process_threads"))
        XCTAssertLessThanOrEqual(threads, 64 + 20 + 16, "probe pool (64) + glibc's resolver pool (20) + HTTP and runtime")
    }

    /// Answers that arrive while a lookup is between two of its waits (every 100 ms, to see cancellation)
    /// are picked up, round after round, and the process stays up. (glibc's gai_suspend, when it times out
    /// just as the answer arrives, leaves a stale waiter that the resolver thread then writes through; the
    /// window is too narrow to hit on demand, so this checks the waiting itself, not that race.)
    func testAnswersArrivingBetweenWaitsResolveWithoutHarm() throws {
        let world = try ServiceWorld.privileged(for: "a private /etc/resolv.conf naming a slow name server")
        let dns = try DelayedNameServer(delay: 0.07...0.13)
        defer { dns.stop() }
        let dir = try TemporaryDirectory.make("pinguard-slow-dns")
        let targets = (1...150).map { ServiceWorld.Target(name: "s\($0)", host: "s\($0).slow.pinguard.test", port: world.farm.port, connect: nil) }
        let config = try world.writeConfig(in: dir, targets: targets, interval: "3s", timeout: "3s", concurrency: 64)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .noJournal, resolvConf: dns.resolvConf.path)
        defer { serve.stop() }
        let m = try serve.waitForMetrics(timeout: 120) { ($0.value("pinguard_probes_total") ?? 0) >= 450 }
        XCTAssertGreaterThanOrEqual(m.value("pinguard_probes_total") ?? 0, 450, serve.stderr)
        XCTAssertEqual(m.value("pinguard_probe_failures_total"), 0, "every delayed answer was read: \(serve.stderr)")
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "s150", "address": "127.0.0.1:\(world.farm.port)"]), 1)
        XCTAssertTrue(serve.isRunning, serve.stderr)
    }
}

