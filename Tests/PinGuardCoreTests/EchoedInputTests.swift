import XCTest
@testable import PinGuardCore

/// How input is shown in errors: quoted, control characters escaped, cut at 200 characters.
final class EchoedInputTests: XCTestCase {
    func testControlCharactersAreEscaped() {
        XCTAssertEqual(EchoedInput.quoted("\u{1B}[2J\u{7}x"), "\"\\x1b[2J\\x07x\"")
        XCTAssertEqual(EchoedInput.quoted("a\nb\tc\r"), "\"a\\nb\\tc\\r\"")
        XCTAssertEqual(EchoedInput.quoted("\u{7F}\u{85}\u{9B}"), "\"\\x7f\\x85\\x9b\"")
        XCTAssertEqual(EchoedInput.quoted("\u{2028}\u{202E}\u{2066}"), "\"\\u{2028}\\u{202e}\\u{2066}\"")
    }

    func testQuotesAndBackslashesAreEscapedOnlyWhenQuoting() {
        XCTAssertEqual(EchoedInput.quoted("say \"hi\" \\ now"), "\"say \\\"hi\\\" \\\\ now\"")
        XCTAssertEqual(EchoedInput.bare("say \"hi\" \\ now"), "say \"hi\" \\ now")
    }

    func testLongInputIsCutWithAnEllipsis() {
        let long = String(repeating: "é", count: 10_000)
        XCTAssertEqual(EchoedInput.quoted(long), "\"" + String(repeating: "é", count: 200) + "\"…")
        XCTAssertEqual(EchoedInput.quoted(String(repeating: "a", count: 200)), "\"" + String(repeating: "a", count: 200) + "\"")
        XCTAssertEqual(EchoedInput.bare("abcdef", limit: 3), "abc…")
    }

    func testPrintableTextIsUnchanged() {
        XCTAssertEqual(EchoedInput.quoted("api.example.com ✓ 日本"), "\"api.example.com ✓ 日本\"")
    }

    func testConfigErrorEscapesItsKeyAndMessage() {
        let e = ConfigError(file: "c\u{1B}.yml", line: 3, key: "environments.p\u{7}", message: "bad \u{1B}[31m")
        XCTAssertEqual(e.description, "c\\x1b.yml:3: environments.p\\x07: bad \\x1b[31m")
    }
}
