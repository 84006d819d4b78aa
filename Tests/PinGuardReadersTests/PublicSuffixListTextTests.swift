import Foundation
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import XCTest

/// The list is read byte by byte; it reads the same rules as reading it character by character does, the
/// bundled list and every way of ending a line or a word included.
final class PublicSuffixListTextTests: XCTestCase {
    /// The list format read the plain way: lines as `Character.isNewline` ends them, the first word after
    /// spaces and tabs, lower-cased.
    func readByCharacters(_ text: String) -> PublicSuffixList {
        var suffixes = Set<String>(), wildcards = Set<String>(), exceptions = Set<String>()
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty, !line.hasPrefix("//") else { continue }
            let rule = String(line.prefix { $0 != " " && $0 != "\t" }).lowercased()
            if rule.hasPrefix("!") { exceptions.insert(String(rule.dropFirst())) }
            else if rule.hasPrefix("*.") { wildcards.insert(String(rule.dropFirst(2))) }
            else { suffixes.insert(rule) }
        }
        return PublicSuffixList(suffixes: suffixes, wildcards: wildcards, exceptions: exceptions)
    }

    func testTheBundledListReadsAsCharacterByCharacter() throws {
        let url = ImportTestSupport.repoRoot.appendingPathComponent("Sources/PinGuardConfig/Resources/public_suffix_list.dat")
        let text = try String(contentsOf: url, encoding: .utf8)
        let list = PublicSuffixList(text: text)
        XCTAssertGreaterThan(list.count, 9_000)
        XCTAssertEqual(list, readByCharacters(text))
        XCTAssertTrue(list.isPublicSuffix("co.uk"))
        XCTAssertTrue(list.isPublicSuffix("公司.cn"))
    }

    func testEveryLineEndAndWordEndReadsAsCharacterByCharacter() {
        let texts = [
            "com\r\nCO.UK\rorg\u{0B}net\u{0C}io\u{85}dev\u{2028}app\u{2029}xyz",
            "  \t// comment\n\t*.CK  rest\n!WWW.ck\tmore\n//\n/\n/x\n ",
            "ÉCOLE.FR\nİ.tr\nSTRASSE.DE\nß.de\n!\u{301}a\n*.\n!\n*\n",
            "a\u{C2}b\nc\u{E2}\u{80}d\u{2027}e\n\u{85}\u{85}f\u{A0}g\u{84}h\nñ\u{2030}",
            "", "\n\n\r\n", "x",
        ]
        for text in texts {
            XCTAssertEqual(PublicSuffixList(text: text), readByCharacters(text), text.debugDescription)
        }
    }
}
