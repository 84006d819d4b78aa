import Foundation
import PinGuardTestSupport
import XCTest

/// What misbehaving HTTP clients can hold on a real `pinguard serve`: slow request heads (slowloris), clients
/// that ask for /metrics and never read, many connections from one address. A scraper elsewhere keeps
/// getting its metrics.
final class HTTPClientLimitsTests: XCTestCase {
    /// 300 sockets from 127.0.0.2 trickling a request head a byte at a time, and 20 clients from 127.0.0.3 that
    /// ask for a multi-megabyte /metrics and never read: every scrape from 127.0.0.1 meanwhile gets a 200.
    /// Per address only 16 connections are admitted; the trickling ones are closed at the head deadline
    /// (2 s here) although bytes keep coming, and the non-reading ones at the write deadline (2 s here).
    func testScrapesSucceedWhileSlowlorisAndNonReadingClientsAreConnected() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-limits-abuse")
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.read-header-timeout", "2s", "--web.write-timeout", "2s"],
                                     mode: .direct, environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "30"])
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 20) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)
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
        let attackStarted = Date()
        XCTAssertTrue(Polling.holds(within: 3) { slow.filter { !$0.closedByServer(within: 0) }.count <= 16 },
                      "at most 16 connections from 127.0.0.2 are kept")
        let admittedSlow = slow.filter { !$0.closedByServer(within: 0) }
        XCTAssertEqual(admittedSlow.count, 16, "the per-client cap admits 16 of the 300 trickling sockets")

        // Scrape for 5 s while the slow sockets keep trickling one byte every 300 ms.
        var scrapes = 0
        var failures: [String] = []
        let request = "ET /metrics HTTP/1.1\r\nHost: x\r\n"
        var sentBytes = 0
        while Date().timeIntervalSince(attackStarted) < 5 {
            let byte = String(request[request.index(request.startIndex, offsetBy: sentBytes % request.count)])
            for c in admittedSlow { c.send(byte) }
            sentBytes += 1
            let started = Date()
            do {
                let reply = try scrape(serve.port)
                if reply.status != 200 || reply.bytes < 6_000_000 {
                    failures.append("status \(reply.status), \(reply.bytes) bytes after \(Date().timeIntervalSince(started)) s")
                }
            } catch {
                failures.append("\(error)")
            }
            scrapes += 1
            let spent = Date().timeIntervalSince(started)
            if spent < 0.3 { usleep(UInt32((0.3 - spent) * 1e6)) }
        }
        XCTAssertGreaterThanOrEqual(scrapes, 3, "scrapes kept being answered")
        XCTAssertEqual(failures, [], "every scrape from 127.0.0.1 succeeded during the attack")
        // The deadlines are 2 s; a loaded machine may render the stalled responses late, so allow a few seconds
        // more before calling a socket kept.
        XCTAssertTrue(Polling.holds(within: 5) { admittedSlow.allSatisfy { $0.closedByServer(within: 0) } },
                      "the trickling sockets were closed at the 2 s head deadline although bytes kept coming")
        XCTAssertTrue(Polling.holds(within: 5) { stalled.allSatisfy { $0.closedByServer(within: 0) } },
                      "the non-reading clients were dropped at the 2 s write deadline (or turned away at once)")
        XCTAssertTrue(serve.isRunning)
    }

    /// At most 2 /metrics responses in flight per client address and 4 overall: stalled readers from
    /// 127.0.0.6 take 2, a third from there gets 503; 2 more from 127.0.0.7 fill the 4, and 127.0.0.8 gets 503;
    /// after the write deadline (2 s) the stalled ones are dropped and their slots are free again.
    func testMetricsResponsesInFlightPerClientAndOverall() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-limits-scrapes")
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.write-timeout", "2s"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 20) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)
        var stalled: [LoopbackSocket] = []
        defer { for c in stalled { c.close() } }
        func stall(from source: String) throws {
            let c = try LoopbackSocket(port: serve.port, source: source, receiveBuffer: 4_096)
            c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            stalled.append(c)
        }
        func status(from source: String) throws -> Int {
            let r = try CommandRunner.run(CommandRunner.which("curl") ?? "/usr/bin/curl",
                                          ["-sS", "--max-time", "10", "--interface", source, "-o", "/dev/null", "-w", "%{http_code}",
                                           "http://127.0.0.1:\(serve.port)/metrics"])
            return Int(r.stdout) ?? 0
        }
        try stall(from: "127.0.0.6")
        try stall(from: "127.0.0.6")
        usleep(300_000)
        XCTAssertEqual(try status(from: "127.0.0.6"), 503, "a third response for 127.0.0.6")
        try stall(from: "127.0.0.7")
        try stall(from: "127.0.0.7")
        usleep(300_000)
        XCTAssertEqual(try status(from: "127.0.0.8"), 503, "4 responses in flight overall")
        XCTAssertTrue(Polling.holds(within: 5) { (try? status(from: "127.0.0.8")) == 200 },
                      "the stalled readers are dropped at the 2 s write deadline and their slots freed")
        // Once every deadline has passed, all 4 slots are free again: 4 new non-reading clients all get a 200
        // head (read without consuming, so that none of them lets its response finish).
        usleep(3_000_000)
        for source in ["127.0.0.10", "127.0.0.10", "127.0.0.11", "127.0.0.11"] { try stall(from: source) }
        for c in stalled.suffix(4) {
            XCTAssertEqual(c.peek(12, timeout: 8), "HTTP/1.1 200", "the earlier stalled readers gave their slots back")
        }
    }

    /// GET /metrics with curl from 127.0.0.1, as a scraper would: status and body size.
    func scrape(_ port: Int) throws -> (status: Int, bytes: Int) {
        let r = try CommandRunner.run(CommandRunner.which("curl") ?? "/usr/bin/curl",
                                      ["-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
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
        let serve = try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "3"], mode: .direct)
        defer { serve.stop() }
        var held: [LoopbackSocket] = []
        defer { for c in held { c.close() } }
        for _ in 0..<5 { held.append(try LoopbackSocket(port: serve.port, source: "127.0.0.4")) }
        XCTAssertTrue(Polling.holds(within: 3) { held.filter { $0.closedByServer(within: 0) }.count == 2 },
                      "of 5 connections from 127.0.0.4, 2 are closed on accept")
        XCTAssertEqual(held.filter { !$0.closedByServer(within: 0) }.count, 3)
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200, "127.0.0.1 is another client")

        let uncapped = try ServeProcess(arguments: ["--config", config, "--web.max-connections-per-client", "0"], mode: .direct)
        defer { uncapped.stop() }
        var many: [LoopbackSocket] = []
        defer { for c in many { c.close() } }
        for _ in 0..<40 { many.append(try LoopbackSocket(port: uncapped.port, source: "127.0.0.4")) }
        usleep(300_000)
        XCTAssertEqual(many.filter { $0.closedByServer(within: 0) }.count, 0, "no per-client cap with 0")
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
