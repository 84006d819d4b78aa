import Foundation
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// `--web.config.file` on a real `pinguard serve`, checked with curl and a real Prometheus: HTTPS, client
/// certificates, basic authentication, changes picked up without a restart, and broken files.
final class WebConfigServeTests: XCTestCase {
    static let curl = CommandRunner.which("curl") ?? "/usr/bin/curl"

    override func setUpWithError() throws {
        if let missing = ServeProcess.missingDirectRequirement { throw XCTSkip(missing) }
    }

    /// curl ARGS; returns (HTTP status or 0 when no response, headers+body text, curl's exit status).
    func curl(_ arguments: [String]) throws -> (status: Int, output: String, exit: Int32) {
        let r = try CommandRunner.run(Self.curl, ["-sS", "--max-time", "10", "-D", "-", "-w", "\n%{http_code}"] + arguments)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, r.stdout + r.stderr, r.status)
    }

    /// A bcrypt hash of `password` made by libxcrypt (cost 4: tests stay quick).
    func bcrypt(_ password: String) throws -> String {
        try XCTUnwrap(BasicAuthenticator.crypt(password, setting: "$2b$04$pinguardtestsaltsaltsu"))
    }

    func serve(_ webConfig: String, in dir: URL, _ more: [String] = [], environment: [String: String] = [:]) throws -> ServeProcess {
        let file = try PolicyYAML.write(webConfig, to: dir, as: "web.yml")
        let config = try EndpointConfigs.small(in: dir)
        return try ServeProcess(arguments: ["--config.file", config, "--web.config.file", file] + more, mode: .direct, environment: environment)
    }

    func testHTTPSWithBasicAuthentication() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-basic")
        let serve = try self.serve("""
        tls_server_config:
          cert_file: \(pki.serverCertificate)
          key_file: \(pki.serverKey)
        basic_auth_users:
          prom: "\(try bcrypt("s3cret"))"
        http_server_config:
          headers:
            X-Content-Type-Options: nosniff
        """, in: dir)
        defer { serve.stop() }
        let url = "https://127.0.0.1:\(serve.port)/metrics"
        let anonymous = try curl(["--cacert", pki.serverCA, url])
        XCTAssertEqual(anonymous.status, 401, anonymous.output)
        XCTAssertTrue(anonymous.output.contains("WWW-Authenticate: Basic"), anonymous.output)
        let good = try curl(["--cacert", pki.serverCA, "-u", "prom:s3cret", url])
        XCTAssertEqual(good.status, 200, good.output)
        XCTAssertTrue(good.output.contains("# HELP pinguard_"), String(good.output.prefix(400)))
        XCTAssertTrue(good.output.contains("X-Content-Type-Options: nosniff"), "configured headers are sent")
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "prom:wrong", url]).status, 401)
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "mallory:s3cret", url]).status, 401)
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "prom:s3cret", "https://127.0.0.1:\(serve.port)/-/healthy"]).status, 200)
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "https://127.0.0.1:\(serve.port)/healthz"]).status, 401,
                       "every path needs the password, as exporter-toolkit")
        XCTAssertNotEqual(try curl(["http://127.0.0.1:\(serve.port)/metrics"]).status, 200, "no plain HTTP on a TLS endpoint")
        XCTAssertNotEqual(try curl([url, "-u", "prom:s3cret"]).exit, 0, "curl does not trust the server without --cacert")

        // The file is re-read for each request: a changed user list applies at once, without a restart.
        _ = try PolicyYAML.write("""
        tls_server_config:
          cert_file: \(pki.serverCertificate)
          key_file: \(pki.serverKey)
        basic_auth_users:
          grafana: "\(try bcrypt("other"))"
        """, to: dir, as: "web.yml")
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "prom:s3cret", url]).status, 401)
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "grafana:other", url]).status, 200)

        // A file broken later is refused and reported once; the last good configuration stays in force.
        _ = try PolicyYAML.write("basic_auth_users: [\n", to: dir, as: "web.yml")
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "grafana:other", url]).status, 200)
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "-u", "prom:s3cret", url]).status, 401)
        XCTAssertTrue(serve.isRunning)
        XCTAssertTrue(serve.stderr.contains("pinguard: web configuration:"), serve.stderr)
    }

    func testMutualTLSNeedsACertificateFromTheClientCA() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-mtls")
        let serve = try self.serve("""
        tls_server_config:
          cert_file: \(pki.serverCertificate)
          key_file: \(pki.serverKey)
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: \(pki.clientCA)
          min_version: TLS12
        """, in: dir)
        defer { serve.stop() }
        let url = "https://127.0.0.1:\(serve.port)/metrics"
        let withCert = try curl(["--cacert", pki.serverCA, "--cert", pki.clientCertificate, "--key", pki.clientKey, url])
        XCTAssertEqual(withCert.status, 200, withCert.output)
        XCTAssertNotEqual(try curl(["--cacert", pki.serverCA, url]).status, 200, "no client certificate")
        XCTAssertNotEqual(try curl(["--cacert", pki.serverCA, "--cert", pki.strangerCertificate, "--key", pki.strangerKey, url]).status, 200,
                          "a client certificate from another CA")
        XCTAssertTrue(serve.isRunning)
    }

    /// Certificates are re-read for each new connection: a rotated certificate is served without a restart.
    func testRotatedCertificateIsServedToTheNextConnection() throws {
        let old = try WebPKI.make()
        let new = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-rotation")
        let cert = dir.appendingPathComponent("live.pem").path
        let key = dir.appendingPathComponent("live.key").path
        func install(_ pki: WebPKI) throws {
            for (from, to) in [(pki.serverCertificate, cert), (pki.serverKey, key)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
        }
        try install(old)
        let serve = try self.serve("tls_server_config:\n  cert_file: live.pem\n  key_file: live.key\n", in: dir)
        defer { serve.stop() }
        let url = "https://127.0.0.1:\(serve.port)/healthz"
        XCTAssertEqual(try curl(["--cacert", old.serverCA, url]).status, 200)
        try install(new)
        XCTAssertEqual(try curl(["--cacert", new.serverCA, url]).status, 200, "the new certificate is served")
        XCTAssertNotEqual(try curl(["--cacert", old.serverCA, url]).status, 200, "the old one is not")
    }

    /// The request-head deadline covers the TLS handshake: a client that connects and never says hello,
    /// or trickles its hello, is closed at the deadline. The idle timeout is ten minutes: nothing else closes them
    /// within the minute waited at most, and neither closes before the deadline.
    func testStalledTLSHandshakeIsClosedAtTheHeadDeadline() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-handshake")
        let serve = try self.serve("tls_server_config:\n  cert_file: \(pki.serverCertificate)\n  key_file: \(pki.serverKey)\n",
                                   in: dir, ["--web.read-header-timeout", "2s"], environment: ["PINGUARD_HTTP_IDLE_TIMEOUT": "600"])
        defer { serve.stop() }
        let started = Date()
        let silent = try LoopbackSocket(port: serve.port, source: "127.0.0.5")
        let trickling = try LoopbackSocket(port: serve.port, source: "127.0.0.5")
        // The first bytes of a TLS record header (handshake, TLS 1.0 record version), one every 200 ms.
        for byte in ["\u{16}", "\u{03}", "\u{01}", "\u{02}"] {
            trickling.send(byte)
            usleep(200_000)
        }
        XCTAssertTrue(silent.closedByServer(within: 60), "a silent client is closed")
        XCTAssertTrue(trickling.closedByServer(within: 60), "a trickling handshake is closed")
        // Bounds below, which a slow machine only makes easier to meet: not before the 2 s deadline.
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.9, "closed before the 2 s deadline")
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, "https://127.0.0.1:\(serve.port)/healthz"]).status, 200)
    }

    func testTLSVersionBoundsAreApplied() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-versions")
        let serve = try self.serve("""
        tls_server_config:
          cert_file: \(pki.serverCertificate)
          key_file: \(pki.serverKey)
          min_version: TLS13
        """, in: dir)
        defer { serve.stop() }
        let url = "https://127.0.0.1:\(serve.port)/healthz"
        XCTAssertEqual(try curl(["--cacert", pki.serverCA, url]).status, 200)
        XCTAssertNotEqual(try curl(["--cacert", pki.serverCA, "--tls-max", "1.2", url]).status, 200, "TLS 1.2 is refused")
    }

    func testBrokenWebConfigIsAStartupError() throws {
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-broken")
        let config = try EndpointConfigs.small(in: dir)
        let cases: [(String, String)] = [
            ("tls_server_config:\n  cert_file: \(pki.serverCertificate)\n  key_file: \(pki.serverKey)\n  prefer: yes\n", "unknown key"),
            ("tls_server_config:\n  cert_file: \(pki.serverCertificate)\n  key_file: \(pki.serverCertificate)\n", "key_file holds no PEM private key"),
            ("tls_server_config:\n  cert_file: /nonexistent.pem\n  key_file: \(pki.serverKey)\n", "cannot read /nonexistent.pem"),
            ("basic_auth_users:\n  prom: plaintext\n", "not a bcrypt hash"),
        ]
        for (text, expected) in cases {
            let file = try PolicyYAML.write(text, to: dir, as: "web.yml")
            let r = try PinguardCLI.run(["serve", "--config", config, "--web.config.file", file], timeout: 15)
            XCTAssertEqual(r.status, 2, "\(text): \(r)")
            XCTAssertTrue(r.stderr.contains("--web.config.file") && r.stderr.contains(expected), "\(expected): \(r.stderr)")
        }
        let missing = try PinguardCLI.run(["serve", "--config", config, "--web.config.file", dir.appendingPathComponent("none.yml").path])
        XCTAssertEqual(missing.status, 2, "\(missing)")
    }

    /// Debian's Prometheus scrapes pinguard over HTTPS with a client certificate and basic auth: `up` is 1.
    func testPrometheusScrapesOverTLSWithBasicAuthentication() throws {
        guard let prometheus = CommandRunner.which("prometheus") else { throw XCTSkip("prometheus is not installed") }
        let pki = try WebPKI.make()
        let dir = try TemporaryDirectory.make("pinguard-web-prometheus")
        let serve = try self.serve("""
        tls_server_config:
          cert_file: \(pki.serverCertificate)
          key_file: \(pki.serverKey)
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: \(pki.clientCA)
        basic_auth_users:
          prom: "\(try bcrypt("scrape-pw"))"
        """, in: dir)
        defer { serve.stop() }
        let promPort = LoopbackPorts.free(ipv6: false)
        let promConfig = try PolicyYAML.write("""
        global: {scrape_interval: 1s, scrape_timeout: 1s}
        scrape_configs:
          - job_name: pinguard
            scheme: https
            tls_config: {ca_file: \(pki.serverCA), cert_file: \(pki.clientCertificate), key_file: \(pki.clientKey)}
            basic_auth: {username: prom, password: scrape-pw}
            static_configs: [{targets: ["127.0.0.1:\(serve.port)"]}]
        """, to: dir, as: "prometheus.yml")
        let server = try ChildProcess(executable: prometheus, arguments: [
            "--config.file=\(promConfig)", "--storage.tsdb.path=\(dir.appendingPathComponent("tsdb").path)",
            "--web.listen-address=127.0.0.1:\(promPort)",
        ], logFile: dir.appendingPathComponent("prometheus.log"))
        defer { server.stop() }
        var last = ""
        let up = Polling.holds(within: 120) {
            let r = try? ServiceHTTP.get(port: promPort, "/api/v1/query?query=up%7Bjob%3D%22pinguard%22%7D", timeout: 10)
            last = r?.body ?? ""
            return last.contains("\"value\":[") && last.contains(",\"1\"]")
        }
        XCTAssertTrue(up, "up{job=\"pinguard\"} did not become 1: \(last)\n\(server.log.suffix(2_000))")
        let samples = try ServiceHTTP.get(port: promPort, "/api/v1/query?query=scrape_samples_scraped%7Bjob%3D%22pinguard%22%7D").body
        XCTAssertFalse(samples.contains(",\"0\"]"), "the scrapes carried samples: \(samples)")
    }
}
