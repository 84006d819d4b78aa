import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// How `YAMLValue` reads a document: what counts as null, a boolean or a number (plain scalars only, tags
/// ignored), lines and key paths of nested nodes, and the documents it refuses as Yams' composer did.
final class YAMLValueReadingTests: XCTestCase {
    private func message(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        XCTFail("accepted")
        return ""
    }

    private func values(_ text: String) throws -> [String: YAMLValue] {
        try YAMLValue.parse(text, file: "v.yml").mapping(allowed: ["a", "b", "c", "d", "e", "f", "g", "h"])
    }

    func testOnlyPlainScalarsAreNullWhateverTheirTag() throws {
        let m = try values("a: null\nb: \"null\"\nc: ~\nd: ''\ne:\nf: !!str null\ng: NULL\nh: |\n  null\n")
        XCTAssertEqual(["a", "b", "c", "d", "e", "f", "g", "h"].map { m[$0]!.isNull },
                       [true, false, true, false, true, true, true, false])
        XCTAssertEqual(try m["b"]!.string(), "null")
        XCTAssertEqual(try m["e"]!.string(), "")
    }

    func testBooleansAndIntegersMustBeWrittenPlain() throws {
        let m = try values("a: true\nb: \"true\"\nc: !!bool true\nd: '5'\ne: +5\nf: !!int \"5\"\ng: FALSE\nh: |\n  true\n")
        XCTAssertEqual(try m["a"]!.bool(), true)
        XCTAssertEqual(try m["c"]!.bool(), true)
        XCTAssertEqual(try m["g"]!.bool(), false)
        XCTAssertEqual(message { _ = try m["b"]!.bool() }, "v.yml:2: b: expected true or false, found \"true\"")
        XCTAssertEqual(message { _ = try m["h"]!.bool() }, "v.yml:8: h: expected true or false, found \"true\\n\"")
        XCTAssertEqual(try m["e"]!.int(in: 0...9), 5)
        XCTAssertEqual(message { _ = try m["d"]!.int(in: 0...9) }, "v.yml:4: d: expected an integer, found \"5\"")
        XCTAssertEqual(message { _ = try m["f"]!.int(in: 0...9) }, "v.yml:6: f: expected an integer, found \"5\"")
    }

    func testNestedNodesKeepTheirLinesAndKeyPaths() throws {
        let text = """
            listen: ":9477"

            targets:
              - host: a.example
              - {host: b.example,
                 port: x}
            """
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse(text, file: "c.yml") },
                       "c.yml:6: targets[1].port: expected an integer, found \"x\"")
        let unknown = "targets:\n  - host: a.example\n\n    bogus: 1\n"
        XCTAssertTrue(message { _ = try ServiceConfigParser.parse(unknown, file: "c.yml") }
            .hasPrefix("c.yml:4: targets[0].bogus: unknown key (known keys: "))
        let root = try YAMLValue.parse("a:\n  - x\n  - b: [1,\n      2]\n", file: "v.yml")
        let item = try root.mapping(allowed: ["a"])["a"]!.sequence()[1]
        let inner = try item.mapping(allowed: ["b"])["b"]!.sequence()
        XCTAssertEqual(item.line, 3)
        XCTAssertEqual(inner.map(\.line), [3, 4])
        XCTAssertEqual(inner.map(\.path), ["a[1].b[0]", "a[1].b[1]"])
    }

    func testEmptyAndMultipleDocumentsAreRefused() {
        XCTAssertEqual(message { _ = try YAMLValue.parse("# only a comment\n", file: "e.yml") }, "e.yml:1: the document is empty")
        XCTAssertEqual(message { _ = try ServiceConfigParser.parse("---\n", file: "e.yml") }, "e.yml:2: expected a mapping, found a scalar")
        XCTAssertEqual(message { _ = try YAMLValue.parse("a: 1\n---\nb: 2\n", file: "m.yml") },
                       "m.yml:2: not valid YAML: expected a single document in the stream: but found another document")
        // A finding of the limits anywhere in the stream comes first.
        XCTAssertEqual(message { _ = try YAMLValue.parse("a: 1\n---\nb: &x 2\n", file: "m.yml") },
                       "m.yml:3: YAML anchors and aliases are not allowed (found anchor &x); write the value out")
    }

    func testEqualCollectionKeysAreRefusedByValueAndTag() throws {
        XCTAssertEqual(message { _ = try YAMLValue.parse("a: 1\n? [x, {y: 1}]\n: 1\n? [x, {y: 1}]\n: 2\n", file: "k.yml") },
                       "k.yml:2: duplicate key \"<uncovertable>\"")
        XCTAssertEqual(message { _ = try YAMLValue.parse("? [b]\n: 1\n? [a]\n: 2\n? [b]\n: 3\n? [a]\n: 4\n", file: "k.yml") },
                       "k.yml:3: duplicate key \"<uncovertable>\", \"<uncovertable>\"")
        // `!!str 1`, `"1"` and `! 1` are the same key as `1`; `!!int 1` is not.
        XCTAssertTrue(message { _ = try YAMLValue.parse("? [\"1\"]\n: 1\n? [! 1]\n: 2\n", file: "k.yml") }.contains("duplicate key"))
        let distinct = try YAMLValue.parse("? [!!int 1]\n: 1\n? [1]\n: 2\n", file: "k.yml")
        XCTAssertEqual(message { _ = try distinct.entries() }, "k.yml:1: a mapping key must be a string")
    }

    func testOneLeadingByteOrderMarkOfAScalarIsDropped() throws {
        let m = try YAMLValue.parse("\"\\uFEFFa\": \"\\uFEFF\\uFEFFx\"\n", file: "b.yml").entries()
        XCTAssertEqual(m.map(\.key), ["a"])
        XCTAssertEqual(try m[0].value.string().unicodeScalars.map(\.value), [0xFEFF, 0x78])
        // Keys that differ only by it are the same key, reported as Yams reported them.
        XCTAssertEqual(message { _ = try YAMLValue.parse("b: 1\n\"\\uFEFFb\": 2\na: 1\n\"\\uFEFFa\": 2\n", file: "b.yml") },
                       "b.yml:3: duplicate key \"a\", \"b\"")
    }

    func testNulCharactersStayInTheValue() throws {
        let m = try YAMLValue.parse("a: \"x\\0y\"\n", file: "n.yml").mapping(allowed: ["a"])
        XCTAssertEqual(try m["a"]!.string().unicodeScalars.map(\.value), [0x78, 0, 0x79])
    }

    func testServerNamesFollowTheOneHostNameRule() {
        func accepts(_ text: String) -> Bool { if case .success = Target.serverName(text) { true } else { false } }
        XCTAssertFalse(accepts("a/b.example"))
        XCTAssertFalse(accepts("a b.example"))
        XCTAssertFalse(accepts("a.example:443"))
        XCTAssertFalse(accepts("outside.example\u{0}.pg.test"), "a NUL would cut the name short in C")
        XCTAssertTrue(accepts("::1"))
        XCTAssertTrue(accepts("[::1]"))
        XCTAssertEqual(try? Target.serverName("API.Example.").get(), "api.example")
        XCTAssertFalse(accepts("a/\u{301}b.example"), "non-ASCII must come IDNA-encoded")
        XCTAssertFalse(accepts("é/b.example"))
        XCTAssertEqual(Target.defaultName(host: "::1", port: 443), "[::1]:443")
        XCTAssertEqual(Target.defaultName(host: "é.example", port: 443), "é.example:443")
    }
}
