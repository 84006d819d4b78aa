import Foundation
import PinGuardTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What HTTP clients can hold on a real `pinguard serve`: an idle half-sent request, connections beyond
/// the cap, and /metrics responses in flight; and the open-file limit pinguard raises to serve them.
final class ServeHTTPLimitsTests: XCTestCase {
    // MARK: - HTTP limits

    /// A connection that sends half a request head and then nothing is closed after the idle timeout
    /// (`PINGUARD_HTTP_IDLE_TIMEOUT=1`), and the server keeps answering others.
    func testHalfSentRequestIsClosedAfterTheIdleTimeout() throws {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-sr-idle")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1h", timeout: "2s", journal: false)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "1"])
        defer { serve.stop() }

        let client = try LoopbackSocket(port: serve.port)
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
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-sr-cap")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1s", timeout: "1s", journal: false)

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

        var clients: [LoopbackSocket] = []
        defer { for c in clients { c.close() } }
        for _ in 0..<300 { clients.append(try LoopbackSocket(port: serve.port)) }
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

        XCTAssertTrue(Polling.holds(within: 5) { (try? ServiceHTTP.get(port: serve.port, "/healthz", timeout: 1).status) == 200 },
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
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-sr-scrapes")
        // 1,500 failed probes judged by 20 policy sets each: several megabytes of exposition without TLS.
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "30"])
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 20) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)

        let full = try LoopbackSocket(port: serve.port)
        XCTAssertTrue(full.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let size = try XCTUnwrap(full.readResponse(timeout: 15), "no /metrics response").bodyBytes
        full.close()
        XCTAssertGreaterThan(size, 6_000_000, "the exposition must exceed what socket buffers hold")

        var stalled: [LoopbackSocket] = []
        defer { for c in stalled { c.close() } }
        for _ in 0..<6 {
            let c = try LoopbackSocket(port: serve.port, receiveBuffer: 4_096)
            XCTAssertTrue(c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"))
            stalled.append(c)
        }
        var start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 5).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "/healthz waited for /metrics renders")

        usleep(500_000)
        let busy = try LoopbackSocket(port: serve.port)
        XCTAssertTrue(busy.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let refused = try XCTUnwrap(busy.readResponse(timeout: 10), "no reply to the 7th GET /metrics")
        busy.close()
        XCTAssertEqual(refused.status, 503, "the stalled responses hold the /metrics slots of this address (2) and overall (4): \(refused)")
        XCTAssertNotNil(refused.headers["retry-after"], "\(refused)")
        XCTAssertLessThan(refused.bodyBytes, 1_000)
        start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 5).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "/healthz is slow while responses are stalled")

        for c in stalled { c.close() }
        stalled = []
        var status = 0
        XCTAssertTrue(Polling.holds(within: 5) {
            guard let c = try? LoopbackSocket(port: serve.port),
                  c.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                  let reply = c.readResponse(timeout: 15) else { return false }
            status = reply.status
            return reply.status == 200 && reply.bodyBytes > 6_000_000
        }, "/metrics works again once the stalled clients are gone (last status \(status))")
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
