import Foundation
import PinGuardTestSupport
import XCTest

/// The HTTP endpoint of a real `pinguard serve`: its routes, and what it does with requests it must refuse.
final class ServeHTTPTests: XCTestCase {
    func testRoutes() throws {
        let port = try RunningService.shared().serve.port
        let health = try ServiceHTTP.get(port: port, "/healthz")
        XCTAssertEqual(health.status, 200, "\(health)")
        XCTAssertEqual(try ServiceHTTP.get(port: port, "/-/healthy").status, 200, "Prometheus' name for /healthz")
        let ready = try ServiceHTTP.get(port: port, "/-/ready")
        XCTAssertEqual(ready.status, 200, "\(ready)")
        let metrics = try ServiceHTTP.get(port: port, "/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertEqual(metrics.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        XCTAssertEqual(metrics.headers["content-length"], String(metrics.body.utf8.count))
        XCTAssertTrue(metrics.body.hasPrefix("# HELP pinguard_"), String(metrics.body.prefix(100)))
        let withQuery = try ServiceHTTP.get(port: port, "/metrics?name[]=pinguard_targets")
        XCTAssertEqual(withQuery.status, 200, "a query string does not change the route")
        let head = try ServiceHTTP.request(port: port, method: "HEAD", path: "/metrics")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, "", "HEAD has no body")
        let page = try ServiceHTTP.get(port: port, "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.body.contains("<h2>Verdicts</h2>") && page.body.contains("<a href=\"/metrics\">"), page.body)
        let problems = page.body.components(separatedBy: "<h2>Verdicts</h2>").first ?? ""
        let firstProblem = problems.components(separatedBy: "<tr class=").dropFirst().first ?? ""
        XCTAssertTrue(firstProblem.hasPrefix("\"critical\"><td>critical</td>"), "the most urgent problem comes first: \(firstProblem)")
    }

    func testRefusedRequests() throws {
        let port = try RunningService.shared().serve.port
        let unknown = try ServiceHTTP.get(port: port, "/nope")
        XCTAssertEqual(unknown.status, 404, "\(unknown)")

        let post = try ServiceHTTP.request(port: port, method: "POST", path: "/metrics")
        XCTAssertEqual(post.status, 405, "\(post)")
        XCTAssertEqual(post.headers["allow"], "GET, HEAD")
        let getReload = try ServiceHTTP.get(port: port, "/-/reload")
        XCTAssertEqual(getReload.status, 405, "a GET must not reload: \(getReload)")
        XCTAssertEqual(getReload.headers["allow"], "POST, PUT")
        let deleteHealth = try ServiceHTTP.request(port: port, method: "DELETE", path: "/healthz")
        XCTAssertEqual(deleteHealth.status, 405)

        // Without --web.enable-lifecycle, as Prometheus: 403, naming the flag.
        let forbidden = try ServiceHTTP.request(port: port, method: "POST", path: "/-/reload")
        XCTAssertEqual(forbidden.status, 403, "\(forbidden)")
        XCTAssertTrue(forbidden.body.contains("Lifecycle API is not enabled.") && forbidden.body.contains("--web.enable-lifecycle"),
                      forbidden.body)

        // Over 64 KiB of body, to a route that would otherwise reload: refused before anything happens.
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 200 * 1024)
        let tooLarge = try ServiceHTTP.request(port: port, method: "POST", path: "/-/reload", body: big)
        XCTAssertTrue((400..<500).contains(tooLarge.status), "\(tooLarge)")
        XCTAssertEqual(tooLarge.status, 413)

        // Not HTTP at all, and a request line with a broken version.
        let garbage = try ServiceHTTP.exchange(port: port, bytes: Array("GARBAGE\r\n\r\n".utf8))
        XCTAssertTrue((400..<500).contains(garbage.status), "\(garbage)")
        let badVersion = try ServiceHTTP.exchange(port: port, bytes: Array("GET /metrics HTTP/9.x\r\n\r\n".utf8))
        XCTAssertTrue((400..<500).contains(badVersion.status), "\(badVersion)")
        let noSpace = try ServiceHTTP.exchange(port: port, bytes: Array("GET/metricsHTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertTrue((400..<500).contains(noSpace.status), "\(noSpace)")

        // The service is unaffected.
        XCTAssertEqual(try ServiceHTTP.get(port: port, "/healthz").status, 200)
        let serve = try RunningService.shared().serve
        XCTAssertEqual(try serve.metrics().value("pinguard_config_last_reload_successful"), 1, "the oversized POST did not reload")
        XCTAssertEqual(ServeLog.eventLines("config_loaded", in: serve.stderr).count, 1, "no reload happened: \(serve.stderr)")
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let port = try RunningService.shared().serve.port
        let two = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let replies = try ServiceHTTP.raw(port: port, bytes: Array(two.utf8))
        // Split on scalars: "\r\n" is one Character, and a body's "\n" runs into the next status line.
        let statusLines = replies.unicodeScalars.split(separator: "\n")
            .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.hasPrefix("HTTP/1.1 ") }
        XCTAssertEqual(statusLines, ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"], replies)
        XCTAssertTrue(replies.contains("Connection: keep-alive"), replies)
    }

    /// `--config.file` and `--web.listen-address` are the Prometheus names of `--config` and `--listen`.
    func testPrometheusStyleFlagNames() throws {
        let dir = try TemporaryDirectory.make("pinguard-http-aliases")
        let config = try EndpointConfigs.small(in: dir)
        let port = LoopbackPorts.free(ipv6: false)
        let serve = try ServeProcess(arguments: ["--config.file", config, "--web.listen-address", "127.0.0.1:\(port)"], mode: .direct)
        defer { serve.stop() }
        XCTAssertEqual(serve.port, port)
        XCTAssertEqual(try ServiceHTTP.get(port: port, "/-/healthy").status, 200)
    }
}
