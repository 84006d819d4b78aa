import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// Service config parsing: IPv6 literal targets, duration maxima, key lines taken from the YAML marks.
/// (Duplicate `policy_sets` entries and over-long durations also have `Tests/Fixtures/config/invalid-*` fixtures.)
final class ServiceConfigParsingTests: XCTestCase {
    /// `host: "::1"` and `host: "[::1]"` are the same IPv6 literal; the default name brackets it.
    func testIPv6LiteralHostsAreAcceptedWithABracketedDefaultName() throws {
        let plain = try ServiceConfigParser.parse("targets:\n  - host: \"::1\"\n", file: "c.yml")
        XCTAssertEqual(plain.targets.first?.host, "::1")
        XCTAssertEqual(plain.targets.first?.name, "[::1]:443")

        let bracketed = try ServiceConfigParser.parse("targets:\n  - host: \"[::1]\"\n", file: "c.yml")
        XCTAssertEqual(bracketed.targets.first?.host, "::1", "the brackets are not part of the server name")
        XCTAssertEqual(bracketed.targets.first?.name, "[::1]:443")

        let withPort = try ServiceConfigParser.parse("targets:\n  - {host: \"[2001:DB8::10]\", port: 8443}\n", file: "c.yml")
        XCTAssertEqual(withPort.targets.first?.name, "[2001:db8::10]:8443")
        XCTAssertEqual(Target(host: "::1", port: 9443).name, "[::1]:9443")

        // Both spellings name the same target.
        XCTAssertThrowsError(try ServiceConfigParser.parse("targets:\n  - host: \"::1\"\n  - host: \"[::1]\"\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:3: targets[1]: target name \"[::1]:443\" is already used on line 2; set a distinct name")
        }
        // A name with a port is still refused, with the hint.
        XCTAssertThrowsError(try ServiceConfigParser.parse("targets:\n  - host: api.example.com:443\n", file: "c.yml")) { error in
            XCTAssertTrue("\(error)".contains("c.yml:2: targets[0].host: \"api.example.com:443\" is not a host name"), "\(error)")
        }
    }

    /// The maxima are inclusive: 7d and 1h are accepted; one step over is refused.
    func testDurationMaximaAreInclusive() throws {
        let c = try ServiceConfigParser.parse("interval: 7d\ntimeout: 1h\n", file: "c.yml")
        XCTAssertEqual(c.interval, 604_800)
        XCTAssertEqual(c.timeout, 3_600)
        XCTAssertThrowsError(try ServiceConfigParser.parse("interval: 1w1s\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:1: interval: \"1w1s\" is longer than the maximum of 7d")
        }
        XCTAssertThrowsError(try ServiceConfigParser.parse("interval: 300y\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:1: interval: \"300y\" is longer than the maximum of 7d")
        }
    }

    /// Lines of keys checked after parsing come from the YAML, not from a text search that a comment
    /// mentioning the same word would fool.
    func testLinesOfLaterCheckedKeysComeFromTheYAML() throws {
        let c = try ServiceConfigParser.parse("""
        # ghost: trust ca_file and policies/ghost.yml were here
        trust:
          ca_file: ca.pem
        policies:
          - policies/a.yml
          - "policies/ghost*.yml"
        targets:
          - host: a.example
          - host: b.example
            policy_sets:
              - app
              - ghost
        """, file: "c.yml")
        XCTAssertEqual(c.lines["trust.ca_file"], 3)
        XCTAssertEqual(c.lines["policies[0]"], 5)
        XCTAssertEqual(c.lines["policies[1]"], 6)
        XCTAssertEqual(c.lines["targets[1].policy_sets[0]"], 11)
        XCTAssertEqual(c.lines["targets[1].policy_sets[1]"], 12)

        let set = try PolicyParser.parse("""
        # name: old-app (renamed)
        version: "2"
        name: app
        environments:
          prod:
            policies: []
        """, file: "p.yml")
        XCTAssertEqual(set.nameLine, 3)
    }

    /// `connect` as one address or a list, `resolve` and `max_addresses` with top-level defaults.
    func testConnectListsResolveModeAndMaxAddresses() throws {
        let c = try ServiceConfigParser.parse("""
        resolve: first
        max_addresses: 4
        targets:
          - {host: a.example, connect: 10.0.0.1}
          - {host: b.example, connect: ["10.0.0.1", "[::1]", lb.example], resolve: all, max_addresses: 2}
        """, file: "c.yml")
        XCTAssertEqual(c.targets[0].connect, ["10.0.0.1"])
        XCTAssertEqual(c.targets[0].resolve, .first)
        XCTAssertEqual(c.targets[0].maxAddresses, 4)
        XCTAssertEqual(c.targets[1].connect, ["10.0.0.1", "::1", "lb.example"])
        XCTAssertEqual(c.targets[1].resolve, .all)
        XCTAssertEqual(c.targets[1].maxAddresses, 2)
        XCTAssertEqual(try ServiceConfigParser.parse("targets:\n  - host: a.example\n", file: "c.yml").targets[0].resolve, .all)

        let bad: [(String, String)] = [
            ("resolve: some\n", "c.yml:1: resolve: \"some\" is not one of all, first"),
            ("max_addresses: 0\n", "c.yml:1: max_addresses: 0 is out of range 1...256"),
            ("targets:\n  - {host: a.example, connect: []}\n", "c.yml:2: targets[0].connect: connect lists no address"),
            ("targets:\n  - {host: a.example, connect: [10.0.0.1, 10.0.0.1]}\n",
             "c.yml:2: targets[0].connect[1]: connect lists \"10.0.0.1\" twice"),
            ("targets:\n  - {host: a.example, connect: \"10.0.0.1:443\"}\n",
             "c.yml:2: targets[0].connect: \"10.0.0.1:443\" is not a host name or address: not an IPv6 address (give the port in \"port\")"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try ServiceConfigParser.parse(text, file: "c.yml"), text) { XCTAssertEqual("\($0)", message) }
        }
    }

    func testEveryConfiguredHostNameFollowsTheOneRuleSoANulIsRefused() {
        let nul = "outside.example\\0.pg.test"
        let cases: [(String, String)] = [
            ("targets:\n  - {host: \"\(nul)\"}\n", "c.yml:2: targets[0].host: \"outside.example\\x00.pg.test\" is not a host name or address: control byte or space 0x00"),
            ("targets:\n  - {host: a.example, connect: \"\(nul)\"}\n", "c.yml:2: targets[0].connect: \"outside.example\\x00.pg.test\" is not a host name or address: control byte or space 0x00"),
            ("targets: []\nfiles:\n  - {path: c.pem, host: \"\(nul)\"}\n", "c.yml:3: files[0].host: \"outside.example\\x00.pg.test\" is not a host name or address: control byte or space 0x00"),
            ("targets:\n  - {host: \"a..example\"}\n", "c.yml:2: targets[0].host: \"a..example\" is not a host name or address: empty label"),
            ("targets:\n  - {host: \"ex\u{E4}mple.com\"}\n", "is not a host name or address: non-ASCII byte (give an IDNA name, xn--…)"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try ServiceConfigParser.parse(text, file: "c.yml"), text) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        }
        let targets = "[{\"targets\": [\"outside.example\\u0000.pg.test:443\"]}]"
        XCTAssertThrowsError(try TargetFileParser.parse(targets, file: "t.json", defaults: ServiceConfig())) {
            XCTAssertTrue("\($0)".contains("is not a host name or address: control byte or space 0x00"), "\($0)")
        }
    }
}
