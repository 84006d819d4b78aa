import Foundation
import PinGuardTestSupport
import XCTest

/// Name resolution under a name server that never answers: each lookup ends at the probe's deadline, and
/// lookups run on glibc's bounded resolver pool (getaddrinfo_a), not on a thread each.
final class ResolutionDeadlineTests: XCTestCase {
    func testALookupThatNeverAnswersEndsAtTheDeadline() throws {
        _ = try ServiceWorld.shared()  // skips without root, nginx or the binary
        let dns = try SilentNameServer()
        defer { dns.stop() }
        let binary = try XCTUnwrap(PinguardCLI.binary)
        let started = Date()
        let r = try CommandRunner.run(ServeProcess.wrapper, ["--no-journal", "--resolv-conf", dns.resolvConf.path, binary,
                                                             "probe", "hang.pinguard.test", "--timeout", "1s"], timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue((r.stdout + r.stderr).contains("resolve hang.pinguard.test: timeout after 1s"), "\(r)")
        XCTAssertLessThan(elapsed, 5, "the resolver's own 5 s x 2 attempts do not hold the probe")
    }

    func testManyHangingLookupsKeepTheThreadCountBounded() throws {
        let world = try ServiceWorld.shared()
        let dns = try SilentNameServer()
        defer { dns.stop() }
        let dir = try TemporaryDirectory.make("pinguard-hang")
        let targets = (1...80).map { ServiceWorld.Target(name: "h\($0)", host: "h\($0).hang.pinguard.test", port: 443, connect: nil) }
        let config = try world.writeConfig(in: dir, targets: targets, interval: "2s", timeout: "1s", concurrency: 64)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .noJournal, resolvConf: dns.resolvConf.path)
        defer { serve.stop() }
        // Three rounds of 80 lookups that each hang for the resolver's 10 s: one thread per lookup would
        // pile up hundreds of threads.
        let m = try serve.waitForMetrics(timeout: 20) { ($0.value("pinguard_probes_total") ?? 0) >= 240 }
        XCTAssertGreaterThanOrEqual(m.value("pinguard_probes_total") ?? 0, 240, serve.stderr)
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "h1"]), 0)
        let threads = try XCTUnwrap(m.value("process_threads"))
        XCTAssertLessThanOrEqual(threads, 64 + 20 + 16, "probe pool (64) + glibc's resolver pool (20) + HTTP and runtime")
    }
}
