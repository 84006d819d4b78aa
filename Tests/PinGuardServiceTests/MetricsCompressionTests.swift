import Foundation
import PinGuardTestSupport
import XCTest

/// `/metrics` is gzipped for clients that ask (Prometheus always does), streamed piece by piece, and sent
/// as is to everyone else.
final class MetricsCompressionTests: XCTestCase {
    static let curl = CommandRunner.which("curl") ?? "/usr/bin/curl"

    func testGzipOnlyWhenAskedAndDecodingGivesTheSameBody() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
        let dir = try TemporaryDirectory.make("pinguard-gzip")
        let config = try EndpointConfigs.largeExposition(in: dir)
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 60) { (try? ServiceHTTP.get(port: serve.port, "/-/ready").status) == 200 }, serve.stderr)
        let url = "http://127.0.0.1:\(serve.port)/metrics"
        let plain = dir.appendingPathComponent("plain.txt").path
        let raw = dir.appendingPathComponent("raw.gz").path
        let decoded = dir.appendingPathComponent("curl-decoded.txt").path

        let plainHeaders = try CommandRunner.run(Self.curl, ["-sS", "-D", "-", "-o", plain, url])
        XCTAssertFalse(plainHeaders.stdout.lowercased().contains("content-encoding"), "not asked: not compressed\n\(plainHeaders.stdout)")
        let rawHeaders = try CommandRunner.run(Self.curl, ["-sS", "-D", "-", "-H", "Accept-Encoding: gzip", "-o", raw, url])
        XCTAssertTrue(rawHeaders.stdout.contains("content-encoding: gzip") || rawHeaders.stdout.contains("Content-Encoding: gzip"),
                      rawHeaders.stdout)
        XCTAssertTrue(rawHeaders.stdout.lowercased().contains("vary: accept-encoding"), rawHeaders.stdout)
        XCTAssertEqual(try CommandRunner.run(Self.curl, ["-sS", "--compressed", "-o", decoded, url]).status, 0)

        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        let rawBytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        XCTAssertGreaterThan(plainBytes.count, 6_000_000, "a body of several 1 MiB pieces")
        XCTAssertEqual(Array(rawBytes.prefix(2)), [0x1f, 0x8b], "a gzip stream")
        XCTAssertLessThan(rawBytes.count, plainBytes.count / 5, "\(rawBytes.count) compressed bytes for \(plainBytes.count)")
        // The process_* samples (CPU, memory) move between two scrapes; every other line is the same.
        func steady(_ data: Data) -> [Substring] {
            String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("process_") }
        }
        let gunzip = try CommandRunner.run("/bin/sh", ["-c", "gzip -dc < \(CommandRunner.quote(raw))"])
        XCTAssertEqual(gunzip.status, 0, "gzip -dc reads the raw body: \(gunzip.stderr)")
        XCTAssertEqual(steady(Data(gunzip.stdout.utf8)), steady(plainBytes), "gzip -dc of the raw body equals the uncompressed body")
        XCTAssertEqual(steady(try Data(contentsOf: URL(fileURLWithPath: decoded))), steady(plainBytes), "curl --compressed gives the same body")
        print("measured: /metrics \(plainBytes.count) bytes, gzipped \(rawBytes.count) bytes")

        // HEAD announces the uncompressed length and no encoding; other routes are never compressed.
        let head = try CommandRunner.run(Self.curl, ["-sS", "-I", "-H", "Accept-Encoding: gzip", url])
        XCTAssertFalse(head.stdout.lowercased().contains("content-encoding"), head.stdout)
        let length = head.stdout.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length: ") }
            .flatMap { Int($0.dropFirst("content-length: ".count)) }
        XCTAssertEqual(Double(length ?? 0), Double(plainBytes.count), accuracy: 200, "the plain length: \(head.stdout)")
        let health = try CommandRunner.run(Self.curl, ["-sS", "-D", "-", "-H", "Accept-Encoding: gzip", "http://127.0.0.1:\(serve.port)/healthz"])
        XCTAssertFalse(health.stdout.lowercased().contains("content-encoding"), health.stdout)
        XCTAssertTrue(health.stdout.hasSuffix("ok\n"), health.stdout)
    }
}
