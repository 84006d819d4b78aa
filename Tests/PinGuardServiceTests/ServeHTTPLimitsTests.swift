import Foundation
import PinGuardTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What HTTP clients can hold on a real `pinguard serve`: an idle half-sent request, connections beyond
/// the cap, and /metrics responses in flight; and the open-file limit pinguard raises to serve them. Every other
/// deadline that could close a connection is set far beyond the minute a test waits at most, so a connection
/// closed within it was closed for the reason under test, however slow the machine.
final class ServeHTTPLimitsTests: XCTestCase {
    // MARK: - HTTP limits

    /// A connection that sends half a request head and then nothing is closed after the idle timeout
    /// (`PINGUARD_HTTP_IDLE_TIMEOUT=1`; the head deadline is ten minutes), and the server keeps answering others.
    func testHalfSentRequestIsClosedAfterTheIdleTimeout() throws {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-sr-idle")
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1h", timeout: "2s", journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.read-header-timeout", "10m"], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "1"])
        defer { serve.stop() }

        let start = Date()
        let client = try LoopbackSocket(port: serve.port)
        XCTAssertTrue(client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n"))
        XCTAssertTrue(client.closedByServer(within: 60), "the half-sent request was still open after a minute")
        // Not before the idle timeout: a bound below, which a slow machine only makes easier to meet.
        let took = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(took, 0.9, "closed after \(took) s: before the 1 s idle timeout")
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
    }

    /// At most 256 connections are served at once: of 300 idle connections, 44 are closed by the server on
    /// accept (nothing else closes one within ten minutes), a new one is turned away too, probes go on meanwhile
    /// (a peer counts the connections of two more rounds), and once the idle ones close the server answers again.
    /// pinguard also raises its soft open-file limit to the hard one: started with a soft limit of 1,024, it runs
    /// with the hard limit.
    func testConnectionsBeyondTheCapAreClosedAndProbesGoOn() throws {
        let w = try ServiceWorld.direct()
        let counter = try HostilePeer(.closeImmediately)
        defer { counter.stop() }
        let dir = try TemporaryDirectory.make("pinguard-sr-cap")
        let counted = ServiceWorld.Target(name: "counted", host: "counted.pinguard.test", port: counter.port)
        let config = try w.writeConfig(in: dir, targets: [w.healthy, counted], interval: "1s", timeout: "1s", journal: false)

        let original = OpenFiles.limits()
        XCTAssertGreaterThan(original.rlim_max, 1_100, "the hard open-file limit is too low for this test")
        OpenFiles.setSoft(1_024)
        let started = Result { try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "0",
                                                            "--web.read-header-timeout", "10m"], mode: .direct,
                                                environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "600"]) }
        // This process needs 300+ descriptors itself.
        OpenFiles.setSoft(original.rlim_max)
        defer { OpenFiles.setSoft(original.rlim_cur) }
        let serve = try started.get()
        defer { serve.stop() }

        let limits = try OpenFiles.ofProcess(serve.pid)
        XCTAssertEqual(limits.soft, limits.hard, "pinguard runs with the hard open-file limit (started with soft 1024)")
        XCTAssertEqual(limits.hard, UInt64(original.rlim_max))

        var m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "healthy"]) == 1 }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1, serve.stderr)

        var clients: [LoopbackSocket] = []
        defer { for c in clients { c.close() } }
        for _ in 0..<300 { clients.append(try LoopbackSocket(port: serve.port)) }
        var closed: [Int] = []
        _ = Polling.holds(within: 60, every: 0.05) {
            closed = clients.indices.filter { clients[$0].closedByServer(within: 0) }
            return closed.count >= 44
        }
        XCTAssertEqual(closed.count, 44, "300 connections, 256 served: the rest are closed on accept (closed: \(closed))")
        XCTAssertThrowsError(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 30),
                             "a 257th connection is closed without a reply")

        // Hold the 256 connections while two more rounds (interval 1 s) run: each probes `counted` once, whose
        // peer counts the connections (/metrics cannot be read while every slot is held).
        let before = counter.acceptedConnections
        XCTAssertTrue(Polling.holds(within: 60) { counter.acceptedConnections - before >= 2 },
                      "rounds ran while the HTTP connections were held:\n\(serve.stderr)")
        closed = clients.indices.filter { clients[$0].closedByServer(within: 0) }
        XCTAssertEqual(closed.count, 44, "the 256 idle connections are kept (idle timeout ten minutes)")
        for c in clients { c.close() }
        clients = []

        XCTAssertTrue(Polling.holds(within: 60) { (try? ServiceHTTP.get(port: serve.port, "/healthz", timeout: 10).status) == 200 },
                      "/healthz answers once the idle connections are gone")
        m = try serve.metrics()
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "healthy"]), 1, serve.stderr)
        XCTAssertTrue(serve.isRunning)
    }

    /// At most 4 /metrics responses are in flight: with 6 clients that asked for a multi-megabyte exposition
    /// and never read, a 7th gets 503 with Retry-After, /healthz does not wait for the renders (it answers in less
    /// time than one whole /metrics response takes on this machine), and /metrics works again once the stalled
    /// clients are gone.
    func testAtMostFourMetricsResponsesInFlight() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-sr-scrapes")
        // 1,500 failed probes judged by 20 policy sets each: several megabytes of exposition without TLS.
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.write-timeout", "10m"], mode: .direct,
                                     environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "600"])
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 60) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)

        // One whole /metrics response, rendered and read: what /healthz would wait for at least, were it served
        // behind the renders.
        let full = try LoopbackSocket(port: serve.port)
        var start = Date()
        XCTAssertTrue(full.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let size = try XCTUnwrap(full.readResponse(timeout: 60), "no /metrics response").bodyBytes
        let render = Date().timeIntervalSince(start)
        full.close()
        XCTAssertGreaterThan(size, 6_000_000, "the exposition must exceed what socket buffers hold")

        var stalled: [LoopbackSocket] = []
        defer { for c in stalled { c.close() } }
        for _ in 0..<6 {
            let c = try LoopbackSocket(port: serve.port, receiveBuffer: 4_096)
            XCTAssertTrue(c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"))
            stalled.append(c)
        }
        start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 60).status, 200)
        var healthz = Date().timeIntervalSince(start)
        XCTAssertLessThan(healthz, render, "/healthz took \(healthz) s, one whole /metrics response \(render) s: it waited for renders")

        // Two stalled responses have started (their heads arrived: this address's two slots) before the 7th asks.
        XCTAssertTrue(Polling.holds(within: 60) { stalled.filter { $0.peek(12, timeout: 0.05) == "HTTP/1.1 200" }.count == 2 },
                      "two stalled responses hold the slots of this address")
        let busy = try LoopbackSocket(port: serve.port)
        XCTAssertTrue(busy.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let refused = try XCTUnwrap(busy.readResponse(timeout: 60), "no reply to the 7th GET /metrics")
        busy.close()
        XCTAssertEqual(refused.status, 503, "the stalled responses hold the /metrics slots of this address (2) and overall (4): \(refused)")
        XCTAssertNotNil(refused.headers["retry-after"], "\(refused)")
        XCTAssertLessThan(refused.bodyBytes, 1_000)
        start = Date()
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz", timeout: 60).status, 200)
        healthz = Date().timeIntervalSince(start)
        XCTAssertLessThan(healthz, render, "/healthz took \(healthz) s while responses are stalled, one whole /metrics response \(render) s")

        for c in stalled { c.close() }
        stalled = []
        var status = 0
        XCTAssertTrue(Polling.holds(within: 60) {
            guard let c = try? LoopbackSocket(port: serve.port),
                  c.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                  let reply = c.readResponse(timeout: 60) else { return false }
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
