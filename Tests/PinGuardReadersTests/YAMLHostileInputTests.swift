import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardTestSupport

/// Policy and config readers under hostile input: alias bombs, size, depth and node budgets, and
/// errors that echo input only quoted, escaped and cut short.
final class YAMLHostileInputTests: XCTestCase {
    /// `Tests/Fixtures/repro/` (Tests/PinGuardReadersTests/<file> is two levels below the package root).
    static let repro = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/repro")

    func reproText(_ name: String) throws -> String {
        try String(contentsOf: Self.repro.appendingPathComponent(name), encoding: .utf8)
    }

    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        XCTFail("accepted")
        return ""
    }

    func testAliasBombPolicyIsRejectedAtItsFirstAnchor() throws {
        let text = try reproText("amp150.yml")
        let m = message { _ = try PolicyParser.parse(text, file: "amp150.yml") }
        XCTAssertEqual(m, "amp150.yml:3: YAML anchors and aliases are not allowed (found anchor &E); write the value out")
        // 1,200 environments aliasing the first (`gen_amp.py 1200 150 150`) instead of 150: eight times the expansion,
        // a few more short lines to read. Rejected at the anchor, the work barely grows; expanded, it grows eightfold.
        let more = HostileShapes.moreAliases(text, upTo: 1_200)
        XCTAssertTrue(message { _ = try PolicyParser.parse(more, file: "amp.yml") }.hasPrefix("amp.yml:3: YAML anchors and aliases are not allowed"))
        let costs = WorkGrowth.costs(below: 4, small: { _ = try? PolicyParser.parse(text, file: "amp150.yml") },
                                     large: { _ = try? PolicyParser.parse(more, file: "amp.yml") })
        XCTAssertLessThan(costs.ratio, 4, "1,200 aliases against 150: \(costs)")
    }

    func testAliasInConfigIsRejected() {
        let m = message { _ = try ServiceConfigParser.parse("targets:\n  - &t {host: a.example.com}\n  - *t\n", file: "c.yml") }
        XCTAssertEqual(m, "c.yml:2: YAML anchors and aliases are not allowed (found anchor &t); write the value out")
    }

    func testAliasUsedAsMappingKeyIsRejectedBeforeComposing() {
        // Yams hashes mapping keys while composing; an aliased key would be hashed once per expansion.
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1..<30 { yaml += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        yaml += "? *a29\n: 1\n"
        let m = message { _ = try PolicyParser.parse(yaml, file: "p.yml") }
        XCTAssertTrue(m.hasPrefix("p.yml:1: YAML anchors and aliases are not allowed"), m)
    }

    func testDocumentOverTheSizeLimitIsRejected() {
        let limits = YAMLLimits(maxBytes: 1000, maxDepth: 64, maxNodes: 1000)
        let m = message { _ = try YAMLValue.parse("name: " + String(repeating: "x", count: 2000), file: "big.yml", limits: limits) }
        XCTAssertEqual(m, "big.yml: the file has 2006 bytes; the limit is 1000 bytes")
    }

    func testDeepNestingIsRejectedWithItsLine() {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let m = message { _ = try PolicyParser.parse("name: x\nenvironments:\n  prod: " + deep + "\n", file: "deep.yml") }
        XCTAssertEqual(m, "deep.yml:3: nested more than 64 levels deep")
    }

    func testVeryDeepNestingEndsInOneLineError() {
        // libyaml stops at its own nesting limit (1000) while scanning ahead, before the event check.
        let deep = String(repeating: "[", count: 1_000_000)
        let m = message { _ = try PolicyParser.parse("name: x\nenvironments:\n  prod: " + deep + "\n", file: "deep.yml") }
        XCTAssertTrue(m.hasPrefix("deep.yml:3: "), m)
        XCTAssertFalse(m.contains("\n"), m)
    }

    func testNodeCountIsBudgeted() {
        let limits = YAMLLimits(maxBytes: 1 << 20, maxDepth: 64, maxNodes: 100)
        let m = message { _ = try YAMLValue.parse("[" + Array(repeating: "1", count: 200).joined(separator: ",") + "]", file: "n.yml", limits: limits) }
        XCTAssertEqual(m, "n.yml:1: more than 100 YAML nodes")
    }

    func testDuplicateCollectionKeysGiveOneLineWithoutTheDocument() {
        let m = message { _ = try PolicyParser.parse("? [secret, a]\n: 1\n? [secret, a]\n: 2\n", file: "p.yml") }
        XCTAssertTrue(m.hasPrefix("p.yml:1: duplicate key"), m)
        XCTAssertFalse(m.contains("\n") || m.contains("secret"), m)
    }

    func testDuplicateKeysAreTrackedWithoutCopyingPerKey() {
        // 190,000 keys in one mapping: copying the key table per key (as a first version did) never ends.
        let wide = (0..<95_000).map { "k\($0): 1\n" }.joined()
        XCTAssertNil(YAMLPreflight.scan(wide, limits: .standard))
        XCTAssertEqual(YAMLPreflight.scan(wide + "k7: 2\n", limits: .standard), .duplicateKey(key: "k7", line: 95_001, firstLine: 8))
    }

    func testStandardLimitsAdmitALargeRealisticPolicy() throws {
        var yaml = "name: big\nenvironments:\n  prod:\n    policies:\n"
        for i in 0..<1000 {
            yaml += "      - pattern: h\(i).example.com\n        policy:\n          pins:\n"
            for j in 0..<3 {
                let hash = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i &+ j) }).base64EncodedString()
                yaml += "            - {type: spki, hash: \"\(hash)\"}\n"
            }
        }
        let set = try PolicyParser.parse(yaml, file: "big.yml")
        XCTAssertEqual(set.environments["prod"]?.rules.count, 1000)
    }

    func testEscapeSequencesInTheFileAreNeverEchoed() throws {
        let text = try reproText("esc-terminal-injection.yml")
        let m = message { _ = try ServiceConfigParser.parse(text, file: "esc.yml") }
        XCTAssertEqual(m, "esc.yml:1: not valid YAML: control characters are not allowed (U+001B)")
        XCTAssertFalse(m.unicodeScalars.contains { EchoedInput.isUnsafe($0) })
    }

    func testControlCharactersWrittenAsEscapesAreEchoedEscaped() {
        // YAML escapes such as "\e" put control characters into a value; errors show them escaped.
        let m = message { _ = try ServiceConfigParser.parse("interval: \"\\e]0;owned\\a\\L\"\n", file: "c.yml") }
        XCTAssertEqual(m, "c.yml:1: interval: \"\\x1b]0;owned\\x07\\u{2028}\" is not a duration (use e.g. 500ms, 10s, 5m, 1h30m)")
        let key = message { _ = try ServiceConfigParser.parse("\"a\\eb\": 1\n", file: "c.yml") }
        XCTAssertTrue(key.hasPrefix("c.yml:1: a\\x1bb: unknown key"), key)
    }

    func testDuplicateKeyNamesTheKeyAndLineOnly() throws {
        let text = try reproText("dupkey-no-line.yml")
        let m = message { _ = try PolicyParser.parse(text, file: "dup.yml") }
        XCTAssertEqual(m, "dup.yml:9: duplicate key \"fail_strategy\" (first on line 8)")
    }

    func testValueOverTheScalarLimitIsRejected() {
        let long = String(repeating: "A", count: 10 << 20)
        let m = message { _ = try ServiceConfigParser.parse("interval: \(long)\n", file: "c.yml") }
        XCTAssertEqual(m, "c.yml:1: a value of 10485760 bytes is longer than the limit of 65536 bytes")
    }

    func testLongValueIsEchoedCutShort() throws {
        let long = String(repeating: "A", count: 10 << 20)
        let limits = YAMLLimits(maxBytes: 16 << 20, maxDepth: 64, maxNodes: 100, maxScalarBytes: 16 << 20)
        let root = try YAMLValue.parse("interval: \(long)\n", file: "c.yml", limits: limits)
        let m = message { _ = try root.mapping(allowed: ["interval"])["interval"]?.duration(max: 60) }
        XCTAssertEqual(m, "c.yml:1: interval: \"\(String(repeating: "A", count: 200))\"… is not a duration (use e.g. 500ms, 10s, 5m, 1h30m)")
    }

    func testLongUnknownKeyIsCutShortInTheKeyPath() {
        let key = String(repeating: "k", count: 1000)
        let m = message { _ = try ServiceConfigParser.parse("\(key): 1\n", file: "c.yml") }
        XCTAssertTrue(m.hasPrefix("c.yml:1: \(String(repeating: "k", count: 200))…: unknown key"), String(m.prefix(300)))
        // The cut key (200 characters) and the list of the known keys: nowhere near the 1,000 given.
        XCTAssertLessThan(m.count, 600)
        XCTAssertFalse(m.contains(String(repeating: "k", count: 201)), "the key is cut at 200 characters")
    }

    func testSyntaxErrorDoesNotQuoteTheLine() {
        let m = message { _ = try PolicyParser.parse("name: [secret-token-\u{7}\n", file: "p.yml") }
        XCTAssertFalse(m.contains("secret-token"), m)
        XCTAssertFalse(m.unicodeScalars.contains { EchoedInput.isUnsafe($0) }, m)
    }
}
