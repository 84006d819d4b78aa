import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardCoreTestSupport

/// One fixture per bad input (`Tests/Fixtures/config/invalid-*.yml`); its first line holds the exact expected message.
final class ConfigFixtureTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/config")

    func testEveryInvalidFixtureGivesItsExactMessage() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasPrefix("invalid-") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 19)
        for name in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            let first = text.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertTrue(first.hasPrefix("# expect: "), "\(name) lacks its expectation line")
            let expected = String(first.dropFirst("# expect: ".count))
            do {
                if name.hasPrefix("invalid-policy-") {
                    _ = try PolicyParser.parse(text, file: name)
                } else {
                    _ = try ServiceConfigParser.parse(text, file: name)
                }
                XCTFail("\(name) was accepted")
            } catch {
                XCTAssertEqual(error.description, expected, name)
            }
        }
    }

    func testValidPolicyParsesWithDefaults() throws {
        let h = ResultFixtures.h(1)
        let set = try PolicyParser.parse("""
        name: ios-app
        version: "5.2"
        environments:
          prod:
            policies:
              - pattern: API.Example.com.
                policy:
                  pins:
                    - {type: spki, hash: "sha256/\(h)", role: primary, scope: leaf}
                    - {type: ca, hash: "\(ResultFixtures.h(2))", role: backup}
                  expires: 2027-06-30
              - pattern: "**.example.com"
                policy: {pins: [], fail_strategy: permissive, require_system_trust: false, allow_system_trust_fallback: true}
            default_policy: {pins: [{type: certificate, hash: "\(ResultFixtures.h(3))"}]}
          staging:
        """, file: "p.yml")
        XCTAssertEqual(set.name, "ios-app")
        XCTAssertEqual(set.version, "5.2")
        let prod = try XCTUnwrap(set.environments["prod"])
        XCTAssertEqual(prod.rules.count, 2)
        let first = prod.rules[0].policy
        XCTAssertEqual(prod.rules[0].pattern, .exact("api.example.com"))
        XCTAssertEqual(first.pins[0].hash, h, "sha256/ prefix stripped")
        XCTAssertEqual(first.pins[0].line, 9)
        XCTAssertEqual(first.failStrategy, .strict)
        XCTAssertTrue(first.requireSystemTrust)
        XCTAssertFalse(first.allowSystemTrustFallback)
        XCTAssertEqual(first.expires.map(RFC3339.format), "2027-07-01T00:00:00Z", "enforced through the whole UTC day")
        XCTAssertEqual(first.pins[1].type, .ca)
        XCTAssertEqual(first.pins[1].role, .backup)
        XCTAssertEqual(first.pins[1].scope, .any)
        XCTAssertEqual(prod.rules[1].policy.failStrategy, .permissive)
        XCTAssertEqual(prod.defaultPolicy?.pins.first?.type, .certificate)
        XCTAssertEqual(set.environments["staging"]?.rules.count, 0)
    }

    func testValidConfigParsesWithDefaults() throws {
        let c = try ServiceConfigParser.parse("""
        listen: "127.0.0.1:9999"
        interval: 1m30s
        timeout: 500ms
        trust: {ca_file: ca.pem}
        targets:
          - host: api.example.com
          - {host: api.example.com, port: 8443, connect: "::1", name: api-v6, environment: staging, policy_sets: [a, b]}
        """, file: "c.yml")
        XCTAssertEqual(c.interval, 90)
        XCTAssertEqual(c.timeout, 0.5)
        XCTAssertEqual(c.concurrency, 32)
        XCTAssertEqual(c.caFile, "ca.pem")
        XCTAssertEqual(c.policies, ["policies/*.yml"])
        XCTAssertEqual(c.targets[0].name, "api.example.com:443")
        XCTAssertEqual(c.targets[0].environment, "prod")
        XCTAssertNil(c.targets[0].policySets)
        XCTAssertEqual(c.targets[1].policySets, ["a", "b"])
        XCTAssertEqual(ListenAddress.parse(c.listen), ListenAddress(host: "127.0.0.1", port: 9999))
        XCTAssertEqual(ListenAddress.parse(":9477"), ListenAddress(host: nil, port: 9477))
        XCTAssertEqual(ListenAddress.parse("[::1]:1"), ListenAddress(host: "::1", port: 1))
    }

    func testDurationsAndBase64() {
        XCTAssertEqual(PromDuration.parse("1h30m"), 5400)
        XCTAssertEqual(PromDuration.parse("250ms"), 0.25)
        XCTAssertNil(PromDuration.parse("10"))
        XCTAssertNil(PromDuration.parse("-5s"))
        XCTAssertNil(PromDuration.parse("5 m"))
        XCTAssertEqual(PromDuration.format(5400), "1h30m")
        XCTAssertNil(Pin.canonicalHash(Base64.encode([UInt8](repeating: 1, count: 31))), "31 bytes is not a SHA-256")
        XCTAssertNotNil(Pin.canonicalHash(ResultFixtures.h(7)))
        XCTAssertNil(Pin.canonicalHash(ResultFixtures.h(7).replacingOccurrences(of: "=", with: "")), "padding required")
    }
}
