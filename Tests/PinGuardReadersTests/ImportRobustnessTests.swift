import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Hostile or odd input: bytes that are not UTF-8, deep nesting, and characters YAML reads as line breaks.
/// Each of these used to crash the process or make the importer fail with an internal error.
final class ImportRobustnessTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    /// The import's error for raw bytes, failing the test when it does not throw one.
    func failure(_ format: PolicyImportFormat, _ bytes: [UInt8], line: UInt = #line) -> ImportError? {
        do {
            let r = try PolicyImporter.importPolicy(format: format, contents: bytes, file: "input", name: "app",
                                                    environment: "prod")
            XCTFail("expected an ImportError, got \(r.policySet)", line: line)
            return nil
        } catch {
            return error
        }
    }

    func nsc(_ body: String, prolog: String = "<?xml version=\"1.0\" encoding=\"utf-8\"?>") -> String {
        "\(prolog)\n<network-security-config>\n\(body)\n</network-security-config>\n"
    }

    func pinnedDomain(_ name: String = "api.example.com") -> String {
        """
        <domain-config>
            <domain>\(name)</domain>
            <pin-set><pin digest="SHA-256">\(h[0])</pin></pin-set>
        </domain-config>
        """
    }

    /// A TrustKit JSON configuration with one pinned domain and `extra` members in its settings.
    func trustKitJSON(extra: [String: Any] = [:], top: [String: Any] = [:]) throws -> [UInt8] {
        var settings: [String: Any] = ["TSKPublicKeyHashes": [h[0], h[1]]]
        settings.merge(extra) { $1 }
        var root: [String: Any] = ["TSKConfiguration": ["TSKSwizzleNetworkDelegates": true,
                                                        "TSKPinnedDomains": ["api.example.com": settings]]]
        root.merge(top) { $1 }
        return [UInt8](try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]))
    }

    // MARK: encodings

    func testInvalidUTF8InXMLMarkupIsAnErrorNotACrash() throws {
        let e = try XCTUnwrap(failure(.androidNSC, Array("<network-security-config>\n<a".utf8) + [0xD0]
                                      + Array("b/></network-security-config>".utf8)))
        XCTAssertEqual(e.file, "input")
        XCTAssertEqual(e.line, 2)
        XCTAssertEqual(e.message, "not valid UTF-8: byte 0xD0 at offset 28; only UTF-8 is supported (convert the file, e.g. with iconv)")
        let attribute = Array("<network-security-config>\n\n<x a=\"".utf8) + [0x80] + Array("\"/></network-security-config>".utf8)
        XCTAssertEqual(try XCTUnwrap(failure(.androidNSC, attribute)).line, 3)
    }

    func testInvalidUTF8InXMLPlistsIsAnErrorNotACrash() throws {
        let plist = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n  <k".utf8) + [0xFF]
            + Array("ey>TSKConfiguration</key>\n  <dict/>\n</dict>\n</plist>\n".utf8)
        for format in [PolicyImportFormat.trustkit, .nspinneddomains] {
            let e = try XCTUnwrap(failure(format, plist), "\(format)")
            XCTAssertEqual(e.line, 4)
            XCTAssertTrue(e.message.contains("not valid UTF-8: byte 0xFF"), e.message)
        }
        // In character data too, and for overlong forms and encoded surrogates, which are not UTF-8 either.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let bytes = Array("<?xml version=\"1.0\"?>\n<network-security-config>\n<domain-config><domain>a".utf8) + bad
                + Array(".com</domain></domain-config>\n</network-security-config>\n".utf8)
            let e = try XCTUnwrap(failure(.androidNSC, bytes))
            XCTAssertEqual(e.line, 3, "\(bad)")
            XCTAssertTrue(e.message.contains("not valid UTF-8"), e.message)
        }
    }

    func testOtherEncodingsAreRefusedClearly() throws {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<network-security-config>\n<!-- caf".utf8)
            + [0xE9] + Array(" -->\n\(pinnedDomain())\n</network-security-config>\n".utf8)
        let declared = try XCTUnwrap(failure(.androidNSC, latin1))
        XCTAssertEqual(declared.line, 1)
        XCTAssertTrue(declared.message.contains("names encoding \"ISO-8859-1\"; only UTF-8 is supported"), declared.message)

        let text = nsc(pinnedDomain(), prolog: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        XCTAssertTrue(try XCTUnwrap(failure(.androidNSC, utf16)).message.contains("UTF-16 encoded; only UTF-8"))
        XCTAssertTrue(try XCTUnwrap(failure(.androidNSC, Array(utf16.dropFirst(2)))).message.contains("UTF-16 or UTF-32"))
        XCTAssertTrue(try XCTUnwrap(failure(.trustkit, [0xFF, 0xFE, 0, 0] + Array(repeating: 0, count: 8)))
            .message.contains("UTF-32 encoded"))
    }

    func testUTF8AndASCIIOnlyInputStillImports() throws {
        // Non-ASCII UTF-8 with a byte order mark, and an ASCII-only file that declares another encoding
        // (every encoding libxml2 applies reads ASCII the same way).
        let utf8 = [0xEF, 0xBB, 0xBF] + Array(nsc("<!-- café ✓ 🔒 -->\n" + pinnedDomain()).utf8)
        let r = try PolicyImporter.importPolicy(format: .androidNSC, contents: utf8, file: "input", name: "app",
                                                environment: "prod")
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0]])
        let ascii = try S.run(.androidNSC, nsc(pinnedDomain(), prolog: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>"))
        XCTAssertEqual(S.rule(ascii, "api.example.com")?.policy.pins.map(\.hash), [h[0]])
    }

    // MARK: nesting

    func testDeeplyNestedPlistIsRefusedBeforeRecursing() throws {
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
            + String(repeating: "<array>\n", count: 2000) + String(repeating: "</array>", count: 2000) + "\n</plist>\n"
        for format in [PolicyImportFormat.nspinneddomains, .trustkit] {
            let e = try XCTUnwrap(S.failure(format, plist), "\(format)")
            XCTAssertEqual(e.message, "nested deeper than 128 levels; refused")
            XCTAssertEqual(e.line, 130, "the line of the 129th element (<plist> is the first)")
        }
    }

    func testDeeplyNestedDomainConfigsAreRefusedAndTheCapStillImports() throws {
        func nested(_ n: Int) -> String {
            "<domain-config><domain>d0.example.com</domain><pin-set><pin digest=\"SHA-256\">\(h[0])</pin></pin-set>\n"
                + (1..<n).map { "<domain-config><domain>d\($0).example.com</domain>\n" }.joined()
                + String(repeating: "</domain-config>", count: n)
        }
        let e = try XCTUnwrap(S.failure(.androidNSC, nsc(nested(5000))))
        XCTAssertTrue(e.message.contains("nested deeper than 128 levels"), e.message)
        XCTAssertEqual(e.line, 129)
        // <network-security-config> + 126 <domain-config> + the innermost <domain> is 128 levels: accepted.
        let r = try S.run(.androidNSC, nsc(nested(126)))
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, 126)
        XCTAssertEqual(S.rule(r, "d125.example.com")?.policy.pins.map(\.hash), [h[0]], "inherited through every level")
        XCTAssertNotNil(S.failure(.androidNSC, nsc(nested(127))))
    }

    func testDeeplyNestedJSONAndBinaryPlistsAreRefused() throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let json = "{\"TSKConfiguration\": {\"TSKSwizzleNetworkDelegates\": true,\n\"x\": \(deep)}}"
        let e = try XCTUnwrap(S.failure(.trustkit, json))
        XCTAssertEqual(e.message, "nested deeper than 128 levels; refused")
        XCTAssertEqual(e.line, 2)
        // Brackets inside strings are not nesting.
        let brackets = String(repeating: "[{", count: 300)
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: trustKitJSON(extra: ["x\\\"[": brackets]),
                                                file: "input", name: "app", environment: "prod")
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.count, 2)

        var value: Any = "leaf"
        for _ in 0..<200 { value = [value] }
        let binary = try PropertyListSerialization.data(fromPropertyList: ["TSKConfiguration": ["x": value]],
                                                        format: .binary, options: 0)
        let b = try XCTUnwrap(failure(.trustkit, [UInt8](binary)))
        XCTAssertEqual(b.message, "nested deeper than 128 levels; refused")
        XCTAssertNil(b.line)
    }

    // MARK: YAML output

    /// What libyaml reads as a line break besides LF and CR.
    let yamlBreaks = ["\u{85}", "\u{2028}", "\u{2029}"]

    func testLineBreaksInSourceKeysStayInsideComments() throws {
        var extra: [String: Any] = ["TSKFoo\u{2028}bogus: [": 1]
        for (i, c) in (yamlBreaks + ["\u{1}", "\u{7F}", "\u{9F}", "\u{FEFF}", "\u{FFFE}", "\r\n"]).enumerated() {
            extra["TSKKey\(i)\(c)- x: ["] = true
        }
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: trustKitJSON(extra: extra),
                                                file: "input", name: "app", environment: "prod")
        XCTAssertEqual(S.findings(r, containing: "unknown TrustKit domain setting").count, extra.count)
        XCTAssertTrue(r.findings.contains { $0.keyPath?.hasSuffix("[\"TSKFoo\u{2028}bogus: [\"]") == true },
                      "JSON keys are read as JSON, not folded as YAML would")
        S.assertRoundTrip(r)
        let forbidden = CharacterSet(charactersIn: "\u{85}\u{2028}\u{2029}\u{1}\u{7F}\u{9F}\u{FEFF}\u{FFFE}\r")
        XCTAssertNil(r.yaml.rangeOfCharacter(from: forbidden), r.yaml)
        // The finding escapes the line break (EchoedInput), so the comment stays one line.
        XCTAssertTrue(r.yaml.contains("[\"TSKFoo\\u{2028}bogus: [\"]: unknown TrustKit domain setting ignored"), r.yaml)
        let header = r.yaml.split(separator: "\n").prefix { $0.hasPrefix("#") }
        XCTAssertEqual(header.count, 3 + r.findings.count, "one comment line per finding")
    }

    func testQuotedScalarsEscapeYAMLLineBreaksAndControls() throws {
        let version = "5.2\u{2028}6\u{85}7\u{2029}8\u{1}\u{7F}\u{9F}\u{A0}\u{FEFF}\u{FFFE}é🔒\"\\\t\n"
        let r = try PolicyImporter.importPolicy(format: .trustkit,
                                                contents: trustKitJSON(top: ["CFBundleShortVersionString": version]),
                                                file: "input", name: "app", environment: "prod")
        XCTAssertEqual(r.policySet.version, version)
        S.assertRoundTrip(r)
        let line = try XCTUnwrap(r.yaml.split(separator: "\n").first { $0.hasPrefix("version:") })
        XCTAssertEqual(line, #"version: "5.2\u20286\x857\u20298\x01\x7F\x9F\#u{A0}\uFEFF\uFFFEé🔒\"\\\t\n""#)
    }
}
