import Foundation
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// A web configuration under attack on a real `pinguard serve`: edits that would break every response are
/// refused while the last good configuration stays in force, and a wrong-password flood from many
/// addresses neither starves a valid scraper nor reveals which user names exist.
final class WebConfigHostileTests: XCTestCase {
    override func setUpWithError() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
    }

    private func bcrypt(_ password: String, cost: String = "04") throws -> String {
        try XCTUnwrap(BasicAuthenticator.crypt(password, setting: "$2b$\(cost)$pinguardtestsaltsaltsu"))
    }

    private func serve(_ web: String, in dir: URL) throws -> ServeProcess {
        let file = try PolicyYAML.write(web, to: dir, as: "web.yml")
        let config = try EndpointConfigs.small(in: dir)
        return try ServeProcess(arguments: ["--config.file", config, "--web.config.file", file], mode: .direct)
    }

    private func get(_ port: Int, _ path: String, user: String, from source: String = "127.0.0.1") -> (status: Int, headers: [String: String])? {
        Self.get(port, path, user: user, from: source)
    }

    private static func get(_ port: Int, _ path: String, user: String, from source: String) -> (status: Int, headers: [String: String])? {
        guard let socket = try? LoopbackSocket(port: port, source: source) else { return nil }
        defer { socket.close() }
        let token = Data("\(user)".utf8).base64EncodedString()
        _ = socket.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(token)\r\nConnection: close\r\n\r\n")
        return socket.readResponse(timeout: 15).map { ($0.status, $0.headers) }
    }

    func testEditsThatWouldBreakResponsesAreRefusedAndTheLastGoodConfigurationStays() throws {
        let dir = try TemporaryDirectory.make("pinguard-web-refused")
        let good = "basic_auth_users:\n  prom: \"\(try bcrypt("pw"))\"\nhttp_server_config:\n  headers:\n    X-Kept: yes\n"
        let serve = try serve(good, in: dir)
        defer { serve.stop() }
        for name in ["webcfg-crlf-header-value.yml", "webcfg-nul-header-value.yml"] {
            let r = try PinguardCLI.run(["serve", "--config", try EndpointConfigs.small(in: dir), "--web.config.file",
                                         try HostileInputs.path(name)], timeout: 15)
            XCTAssertEqual(r.status, 2, "\(name) is refused at start: \(r)")
            XCTAssertTrue(r.stderr.contains("http_server_config.headers.X-A") && r.stderr.contains("control characters"), r.stderr)
        }
        let broken = [
            "http_server_config:\n  headers:\n    X-A: \"v\\r\\nSet-Cookie: evil=1\"\n",
            "basic_auth_users:\n  prom: \"\(String(try bcrypt("pw").prefix(28)))v\(String(try bcrypt("pw").dropFirst(29)))\"\n",
            "basic_auth_users:\n  prom: \"$2b$31$\(String(try bcrypt("pw").dropFirst(7)))\"\n",
        ]
        for text in broken {
            _ = try PolicyYAML.write(text, to: dir, as: "web.yml")
            let reply = get(serve.port, "/metrics", user: "prom:pw")
            XCTAssertEqual(reply?.status, 200, "the last good configuration answers: \(text)")
            XCTAssertEqual(reply?.headers["x-kept"] ?? reply?.headers["X-Kept"], "yes", "\(reply?.headers ?? [:])")
        }
        XCTAssertTrue(serve.isRunning)
        XCTAssertTrue(serve.stderr.contains("web configuration"), serve.stderr)
        XCTAssertTrue(serve.stderr.contains("bcrypt cost 31 is outside 4-12"), serve.stderr)
    }

    func testACertificateFileWithTooManyCertificatesIsRefused() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-many-certs")
        let one = try String(contentsOfFile: pki.serverCertificate, encoding: .utf8)
        let many = try PolicyYAML.write(String(repeating: one, count: 2_000), to: dir, as: "many.pem")
        let web = try PolicyYAML.write("tls_server_config:\n  cert_file: \(many)\n  key_file: \(pki.serverKey)\n", to: dir, as: "web.yml")
        XCTAssertThrowsError(try WebConfigSource(path: web)) {
            XCTAssertTrue("\($0)".contains("cert_file holds 2000 certificates; at most 16"), "\($0)")
        }
    }

    /// Twelve addresses send wrong passwords as fast as they are answered while a scraper with valid credentials
    /// (checked for the first time during the flood) scrapes five times from another address: every scrape gets 200,
    /// and the flooding addresses, past their 10 failures, are refused without bcrypt (429). The flood lasts until
    /// the scraper is done and every address has tried 24 times: counts and order, not seconds, so a slow machine
    /// only makes it longer.
    func testValidScrapesSucceedDuringAWrongPasswordFlood() throws {
        let dir = try TemporaryDirectory.make("pinguard-web-flood")
        let serve = try serve("basic_auth_users:\n  prom: \"\(try bcrypt("right", cost: "10"))\"\n", in: dir)
        defer { serve.stop() }
        let port = serve.port
        let tally = StatusTally()
        let flooders = DispatchGroup()
        for i in 2...13 {
            for _ in 0..<2 {
                DispatchQueue.global().async(group: flooders) {
                    var tries = 0
                    while tries < 12 || !tally.scraped {
                        tally.add(Self.get(port, "/metrics", user: "prom:wrong\(i)", from: "127.0.0.\(i)")?.status ?? 0)
                        tries += 1
                    }
                }
            }
        }
        XCTAssertTrue(Polling.holds(within: 120) { tally.total >= 24 }, "the flood is under way")
        let scrapes = (0..<5).map { _ in get(port, "/metrics", user: "prom:right")?.status ?? 0 }
        tally.scraped = true
        flooders.wait()
        let seen = tally.counts
        XCTAssertEqual(scrapes, [200, 200, 200, 200, 200], "every valid scrape succeeded during the flood")
        XCTAssertGreaterThan(seen[429, default: 0], 0, "flooding addresses were refused without bcrypt: \(seen)")
        XCTAssertNil(seen[200], "no wrong password was accepted: \(seen)")
    }
}

/// Statuses seen by concurrent clients, counted under a lock.
private final class StatusTally: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int: Int] = [:]

    func add(_ status: Int) {
        lock.lock()
        seen[status, default: 0] += 1
        lock.unlock()
    }

    var counts: [Int: Int] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }

    /// Responses counted so far.
    var total: Int { counts.values.reduce(0, +) }

    /// Whether the valid scraper is done (the flood stops then).
    var scraped: Bool {
        get { lock.withLock { done } }
        set { lock.withLock { done = newValue } }
    }
    private var done = false
}
