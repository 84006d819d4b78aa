import Foundation
import PinGuardTestSupport
import XCTest

/// What misbehaving HTTP clients can hold on a real `pinguard serve`: slow request heads (slowloris), clients
/// that ask for /metrics and never read, many connections from one address. A scraper elsewhere keeps
/// getting its metrics. Every deadline not under test is set far beyond the minute a test waits at most, so what
/// closes a connection within it is the limit under test, however slow the machine.
final class HTTPClientLimitsTests: XCTestCase {
    /// A serve of several megabytes of exposition with the given deadlines; the idle timeout is ten minutes.
    func largeServe(_ name: String, headDeadline: String, writeDeadline: String) throws -> ServeProcess {
        let dir = try TemporaryDirectory.make(name)
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.read-header-timeout", headDeadline, "--web.write-timeout", writeDeadline],
                                     mode: .direct, environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "600"])
        XCTAssertTrue(Polling.holds(within: 60) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)
        return serve
    }

    /// 300 sockets from 127.0.0.2 trickling a request head a byte at a time, and 20 clients from 127.0.0.3 that
    /// ask for a multi-megabyte /metrics and never read: every scrape from 127.0.0.1 meanwhile gets a 200. Per
    /// address only 16 connections are admitted (the deadlines are ten minutes here: nothing else closes one).
    func testScrapesSucceedWhileSlowlorisAndNonReadingClientsAreConnected() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let serve = try largeServe("pinguard-limits-abuse", headDeadline: "10m", writeDeadline: "10m")
        defer { serve.stop() }
        let reference = try scrape(serve.port)
        XCTAssertEqual(reference.status, 200)
        XCTAssertGreaterThan(reference.bytes, 6_000_000, "the exposition must exceed what socket buffers hold")

        var slow: [LoopbackSocket] = []
        var stalled: [LoopbackSocket] = []
        defer { for c in slow + stalled { c.close() } }
        for _ in 0..<300 {
            let c = try LoopbackSocket(port: serve.port, source: "127.0.0.2")
            c.send("G")
            slow.append(c)
        }
        for _ in 0..<20 {
            let c = try LoopbackSocket(port: serve.port, source: "127.0.0.3", receiveBuffer: 4_096)
            c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            stalled.append(c)
        }
        XCTAssertTrue(Polling.holds(within: 60, every: 0.05) { slow.filter { !$0.closedByServer(within: 0) }.count <= 16 },
                      "at most 16 connections from 127.0.0.2 are kept")
        let admittedSlow = slow.filter { !$0.closedByServer(within: 0) }
        XCTAssertEqual(admittedSlow.count, 16, "the per-client cap admits 16 of the 300 trickling sockets")

        // Five scrapes while the slow sockets keep trickling, a byte each between two scrapes.
        var failures: [String] = []
        let request = "ET /metrics HTTP/1.1\r\nHost: x\r\n"
        for k in 0..<5 {
            let byte = String(request[request.index(request.startIndex, offsetBy: k % request.count)])
            for c in admittedSlow { c.send(byte) }
            do {
                let reply = try scrape(serve.port)
                if reply.status != 200 || reply.bytes < 6_000_000 { failures.append("status \(reply.status), \(reply.bytes) bytes") }
            } catch {
                failures.append("\(error)")
            }
        }
        XCTAssertEqual(failures, [], "every scrape from 127.0.0.1 succeeded during the attack")
        XCTAssertEqual(admittedSlow.filter { $0.closedByServer(within: 0) }.count, 0, "the attack held throughout the scrapes")
        XCTAssertTrue(serve.isRunning)
    }

    /// The trickling sockets are closed at the head deadline (2 s here) although bytes keep coming, and the
    /// non-reading clients at the write deadline (2 s here) or turned away at once: with a ten-minute idle timeout,
    /// nothing else closes them within the minute waited at most, and none closes before its deadline.
    func testSlowlorisAndNonReadingClientsAreClosedAtTheirDeadlines() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let serve = try largeServe("pinguard-limits-deadlines", headDeadline: "2s", writeDeadline: "2s")
        defer { serve.stop() }
        let start = Date()
        let slow = try (0..<16).map { _ in try LoopbackSocket(port: serve.port, source: "127.0.0.2") }
        let stalled = try (0..<20).map { _ in try LoopbackSocket(port: serve.port, source: "127.0.0.3", receiveBuffer: 4_096) }
        defer { for c in slow + stalled { c.close() } }
        for c in stalled { c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") }
        let request = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
        var sent = 0
        XCTAssertTrue(Polling.holds(within: 60, every: 0.3) {
            let byte = String(request[request.index(request.startIndex, offsetBy: sent % request.count)])
            for c in slow { c.send(byte) }
            sent += 1
            return slow.allSatisfy { $0.closedByServer(within: 0) }
        }, "the trickling sockets were closed at the 2 s head deadline although bytes kept coming")
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 1.9, "not before the deadline")
        XCTAssertGreaterThan(sent, 2, "bytes kept coming")
        XCTAssertTrue(Polling.holds(within: 60) { stalled.allSatisfy { $0.closedByServer(within: 0) } },
                      "the non-reading clients were dropped at the 2 s write deadline (or turned away at once)")
        XCTAssertTrue(serve.isRunning)
    }

    /// At most 2 /metrics responses in flight per client address and 4 overall: stalled readers from
    /// 127.0.0.6 take 2, a third from there gets 503; 2 more from 127.0.0.7 fill the 4, and 127.0.0.8 gets 503;
    /// after the write deadline (2 s) the stalled ones are dropped and their slots are free again.
    func testMetricsResponsesInFlightPerClientAndOverall() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let serve = try largeServe("pinguard-limits-scrapes", headDeadline: "10m", writeDeadline: "2s")
        defer { serve.stop() }
        var stalled: [LoopbackSocket] = []
        defer { for c in stalled { c.close() } }
        /// A reader that asks for /metrics and never reads: once its response head arrives, it holds a slot.
        func stall(from source: String) throws {
            let c = try LoopbackSocket(port: serve.port, source: source, receiveBuffer: 4_096)
            c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(c.peek(12, timeout: 60), "HTTP/1.1 200", "a slot for \(source)")
            stalled.append(c)
        }
        func status(from source: String) throws -> Int {
            let r = try CommandRunner.run(CommandRunner.which("curl") ?? "/usr/bin/curl",
                                          ["-sS", "--max-time", "60", "--interface", source, "-o", "/dev/null", "-w", "%{http_code}",
                                           "http://127.0.0.1:\(serve.port)/metrics"])
            return Int(r.stdout) ?? 0
        }
        try stall(from: "127.0.0.6")
        try stall(from: "127.0.0.6")
        XCTAssertEqual(try status(from: "127.0.0.6"), 503, "a third response for 127.0.0.6")
        try stall(from: "127.0.0.7")
        try stall(from: "127.0.0.7")
        XCTAssertEqual(try status(from: "127.0.0.8"), 503, "4 responses in flight overall")
        XCTAssertTrue(Polling.holds(within: 60) { (try? status(from: "127.0.0.8")) == 200 },
                      "the stalled readers are dropped at the 2 s write deadline and their slots freed")
        // Once every stalled reader is dropped, all 4 slots are free again: 4 new non-reading clients all get a 200
        // head (read without consuming, so that none of them lets its response finish).
        XCTAssertTrue(Polling.holds(within: 60) { stalled.allSatisfy { $0.closedByServer(within: 0) } }, "every stalled reader was dropped")
        for source in ["127.0.0.10", "127.0.0.10", "127.0.0.11", "127.0.0.11"] { try stall(from: source) }
    }

    /// GET /metrics with curl from 127.0.0.1, as a scraper would: status and body size.
    func scrape(_ port: Int) throws -> (status: Int, bytes: Int) {
        let r = try CommandRunner.run(CommandRunner.which("curl") ?? "/usr/bin/curl",
                                      ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                                       "http://127.0.0.1:\(port)/metrics"])
        let parts = r.stdout.split(separator: " ")
        guard parts.count == 2, let status = Int(parts[0]), let bytes = Int(parts[1]) else { throw HarnessError("curl: \(r)") }
        return (status, bytes)
    }

    /// Connections from one address beyond `--web.max-connections-per-client` are closed on accept; another
    /// address is unaffected, and `0` lifts the cap.
    func testConnectionsPerClientAreCapped() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-limits-cap")
        let config = try EndpointConfigs.small(in: dir)
        // Nothing but the cap closes a connection within the minute waited at most: the head deadline is ten minutes.
        let serve = try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "3", "--web.read-header-timeout", "10m"],
                                     mode: .direct, environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "600"])
        defer { serve.stop() }
        var held: [LoopbackSocket] = []
        defer { for c in held { c.close() } }
        for _ in 0..<5 { held.append(try LoopbackSocket(port: serve.port, source: "127.0.0.4")) }
        XCTAssertTrue(Polling.holds(within: 60) { held.filter { $0.closedByServer(within: 0) }.count == 2 },
                      "of 5 connections from 127.0.0.4, 2 are closed on accept")
        XCTAssertEqual(held.filter { !$0.closedByServer(within: 0) }.count, 3)
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200, "127.0.0.1 is another client")

        let uncapped = try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "0"], mode: .direct)
        defer { uncapped.stop() }
        var many: [LoopbackSocket] = []
        defer { for c in many { c.close() } }
        for _ in 0..<40 { many.append(try LoopbackSocket(port: uncapped.port, source: "127.0.0.4")) }
        // Every one of them is served: a connection closed on accept would get no reply.
        for c in many { XCTAssertTrue(c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) }
        XCTAssertEqual(many.compactMap { $0.readResponse(timeout: 60)?.status }, Array(repeating: 200, count: 40), "no per-client cap with 0")
    }

    /// Bad values of the new flags are a configuration error (exit 2) naming the flag.
    func testBadEndpointFlagsExitTwo() throws {
        let dir = try TemporaryDirectory.make("pinguard-limits-flags")
        let config = try EndpointConfigs.small(in: dir)
        for (flag, value) in [("--web.read-header-timeout", "soon"), ("--web.write-timeout", "0s"),
                              ("--web.max-connections-per-client", "-1")] {
            let r = try PinguardCLI.run(["serve", "--config", config, "\(flag)=\(value)"])
            XCTAssertEqual(r.status, 2, "\(flag) \(value): \(r)")
            XCTAssertTrue(r.stderr.contains(flag), "the error names \(flag): \(r.stderr)")
        }
    }
}
