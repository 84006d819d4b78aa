import Foundation
import PinGuardCore
import PinGuardReaders
@testable import PinGuardConfig
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// The web configuration file, read as exporter-toolkit reads it: strictly, with exact errors.
final class WebConfigParserTests: XCTestCase {
    var dir: URL!
    let hash = "$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi"

    override func setUpWithError() throws {
        dir = try TemporaryDirectory.make("pinguard-webconfig")
        _ = try PolicyYAML.write("not checked by the parser", to: dir, as: "server.crt")
        _ = try PolicyYAML.write("not checked by the parser", to: dir, as: "server.key")
        _ = try PolicyYAML.write("not checked by the parser", to: dir, as: "ca.crt")
    }

    func parse(_ text: String) throws(ConfigError) -> WebConfig {
        try WebConfigParser.parse(text, file: dir.appendingPathComponent("web.yml").path)
    }

    func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return error.message + " @ " + (error.key ?? "")
        }
    }

    func testFullConfigurationWithRelativePaths() throws {
        let c = try parse("""
        tls_server_config:
          cert_file: server.crt
          key_file: server.key
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: ca.crt
          min_version: TLS13
        http_server_config:
          http2: false
          headers:
            X-Content-Type-Options: nosniff
        basic_auth_users:
          alice: "\(hash)"
        """)
        let tls = try XCTUnwrap(c.tls)
        XCTAssertEqual(tls.certFile, dir.appendingPathComponent("server.crt").path, "resolved against the file's folder")
        XCTAssertEqual(tls.clientCAFile, dir.appendingPathComponent("ca.crt").path)
        XCTAssertEqual(tls.clientAuth, .requireAndVerifyClientCert)
        XCTAssertEqual(tls.minVersion, .tls13)
        XCTAssertEqual(c.basicAuthUsers, ["alice": hash])
        XCTAssertEqual(c.headers.map(\.0), ["X-Content-Type-Options"])
    }

    func testEmptyFilesAndSectionsMeanPlainHTTP() throws {
        XCTAssertEqual(try parse(""), WebConfig())
        XCTAssertNil(try parse("tls_server_config: {}\n").tls, "no cert_file and key_file: no TLS, as exporter-toolkit")
        XCTAssertEqual(try parse("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n").tls?.minVersion, .tls12,
                       "TLS 1.2 at least by default")
    }

    func testRejectedConfigurations() {
        XCTAssertEqual(error("tls_config: {}\n"),
                       "unknown key (known keys: basic_auth_users, http_server_config, rate_limit, tls_server_config) @ tls_config")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n"), "missing key_file @ tls_server_config")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: nope.key\n"),
                       "cannot read \(dir.appendingPathComponent("nope.key").path): no such file @ tls_server_config.key_file")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n"),
                       "not supported by pinguard (pinguard uses swift-nio-ssl's defaults); remove it @ tls_server_config.cipher_suites")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n"),
                       "client CAs are configured without a client_auth_type that uses them @ tls_server_config.client_ca_file")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert\n"),
                       "client_auth_type RequireAndVerifyClientCert needs client_ca_file @ tls_server_config")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: Always\n"),
                       "\"Always\" is not one of NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert @ tls_server_config.client_auth_type")
        XCTAssertEqual(error("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS13\n  max_version: TLS12\n"),
                       "max_version TLS12 is below min_version TLS13 @ tls_server_config.max_version")
        XCTAssertEqual(error("basic_auth_users:\n  alice: secret\n"),
                       "not a bcrypt hash (expected $2a$, $2b$ or $2y$, a two-digit cost, 53 characters; make one with `htpasswd -nBC 10 \"\" | tr -d ':\\n'`) @ basic_auth_users.alice")
        XCTAssertEqual(error("http_server_config:\n  headers:\n    Content-Type: text/html\n"),
                       "the header Content-Type is set by pinguard and cannot be configured @ http_server_config.headers.Content-Type")
        XCTAssertEqual(error("http_server_config:\n  http3: true\n"), "unknown key (known keys: headers, http2) @ http_server_config.http3")
        XCTAssertEqual(error("rate_limit:\n  interval: 1s\n"), "not supported by pinguard (its limits are built in) @ rate_limit")
    }

    func testHeaderValuesWithControlBytesAreRefused() throws {
        for value in ["\"v\\r\\nSet-Cookie: evil=1\"", "\"v\\0w\"", "\"a\\rb\"", "\"a\\nb\"", "\"a\\x1bb\"", "\"a\\x7Fb\""] {
            XCTAssertEqual(error("http_server_config:\n  headers:\n    X-A: \(value)\n"),
                           "a header value must be one line without control characters (CR, LF, NUL and the like) @ http_server_config.headers.X-A",
                           value)
        }
        for name in ["webcfg-crlf-header-value.yml", "webcfg-nul-header-value.yml"] {
            let text = try String(contentsOfFile: try HostileInputs.path(name), encoding: .utf8)
            XCTAssertThrowsError(try WebConfigParser.parse(text, file: name), name)
        }
        XCTAssertEqual(error("http_server_config:\n  headers:\n    X-A: \"tab\\there\"\n"), "no error", "a tab is allowed in a header value")
    }

    func testBcryptHashesWithBadSaltsOrCostsAreRefused() throws {
        let good = try XCTUnwrap(BasicAuthenticator.crypt("pw", setting: "$2b$04$abcdefghijklmnopqrstuu"))
        XCTAssertEqual(error("basic_auth_users:\n  a: \"\(good)\"\n"), "no error")
        let salt = String(good.prefix(28)) + "v" + good.dropFirst(29)
        XCTAssertEqual(error("basic_auth_users:\n  a: \"\(salt)\"\n"),
                       "the bcrypt salt is not canonical (its 22nd character must be one of . O e u): no password could ever match it @ basic_auth_users.a")
        let costly = "$2b$13$" + good.dropFirst(7)
        XCTAssertEqual(error("basic_auth_users:\n  a: \"\(costly)\"\n"),
                       "bcrypt cost 13 is outside 4-12 (each check of a higher cost takes too long for a scrape; 10 is usual) @ basic_auth_users.a")
        let foreign = String(good.prefix(40)) + "!" + good.dropFirst(41)
        XCTAssertEqual(error("basic_auth_users:\n  a: \"\(foreign)\"\n"),
                       "the bcrypt salt or hash holds a character outside ./A-Za-z0-9 @ basic_auth_users.a")
    }

    func testUnknownUsersAreCheckedAgainstTheHighestConfiguredCost() throws {
        let text = try String(contentsOfFile: try HostileInputs.path("webcfg-cost12-user.yml"), encoding: .utf8)
        let config = try WebConfigParser.parse(text, file: "web.yml")
        XCTAssertTrue(config.unknownUserHash.hasPrefix("$2b$12$"), config.unknownUserHash)
        XCTAssertEqual(try BcryptHash.parse(config.unknownUserHash).get().cost, 12, "the same bcrypt work as the cost-12 user")
        let dummy = try XCTUnwrap(BasicAuthenticator.crypt("any", setting: config.unknownUserHash), "libxcrypt accepts the dummy hash")
        XCTAssertNotEqual(dummy, config.unknownUserHash, "no password matches it")
        XCTAssertTrue(try WebConfigParser.parse("", file: "web.yml").unknownUserHash.hasPrefix("$2b$10$"))
    }

    func testBcryptVerificationWithLibxcrypt() throws {
        let made = try XCTUnwrap(BasicAuthenticator.crypt("hunter2", setting: "$2b$04$abcdefghijklmnopqrstuu"))
        XCTAssertEqual(try BcryptHash.parse(made).get().cost, 4, made)
        XCTAssertEqual(BasicAuthenticator.crypt("hunter2", setting: made), made, "the same password gives the stored hash")
        XCTAssertNotEqual(BasicAuthenticator.crypt("hunter3", setting: made), made)
        let yVariant = "$2y$" + made.dropFirst(4)
        XCTAssertEqual(BasicAuthenticator.crypt("hunter2", setting: yVariant), yVariant, "htpasswd's $2y$ hashes verify too")
        XCTAssertNil(BasicAuthenticator.crypt("x", setting: "$9$nonsense"), "a setting libxcrypt refuses is no match")
        XCTAssertTrue(BasicAuthenticator.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        XCTAssertFalse(BasicAuthenticator.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
    }
}
