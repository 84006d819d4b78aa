import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class LintPublicSuffixListTests: XCTestCase {
    func testListFormat() {
        let psl = PublicSuffixList(text: """
        // comment line
          // indented comment
        com
        CO.UK   trailing words are ignored
        *.ck
        !www.ck

        github.io
        """)
        XCTAssertEqual(psl.count, 5)
        for d in ["com", "co.uk", "foo.ck", "github.io", "GitHub.IO.", "localhost"] {
            XCTAssertTrue(psl.isPublicSuffix(d), d)
        }
        for d in ["example.com", "www.ck", "a.foo.ck", "me.github.io", "ck.example", ""] {
            XCTAssertFalse(psl.isPublicSuffix(d), d)
        }
        XCTAssertTrue(psl.isPublicSuffix("ck"), "the implicit * rule makes every single label a suffix")
    }

    func testInstalledListWhenPresent() throws {
        let path = "/usr/share/publicsuffix/public_suffix_list.dat"
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is not installed (Debian package publicsuffix)")
        }
        let psl = PublicSuffixList(text: try String(contentsOfFile: path, encoding: .utf8))
        XCTAssertGreaterThan(psl.count, 5_000)
        for d in ["com", "co.uk", "github.io", "appspot.com", "s3.amazonaws.com"] {
            XCTAssertTrue(psl.isPublicSuffix(d), d)
        }
        for d in ["example.com", "google.co.uk", "octocat.github.io"] {
            XCTAssertFalse(psl.isPublicSuffix(d), d)
        }
        let set = try PolicyParser.parse("""
        name: broad
        environments:
          prod:
            policies:
              - pattern: "**.github.io"
                policy: {pins: [{hash: "\(ImportTestSupport.h[0])"}, {hash: "\(ImportTestSupport.h[1])", role: backup}]}
              - pattern: "*.co.uk"
                policy: {pins: [{hash: "\(ImportTestSupport.h[0])"}, {hash: "\(ImportTestSupport.h[1])", role: backup}]}
        """, file: "broad.yml")
        let f = PolicyLinter.lint([set], now: ImportTestSupport.now, publicSuffixes: psl)
        XCTAssertEqual(f.filter { $0.rule == .publicSuffixPattern }.map(\.pattern), ["**.github.io", "*.co.uk"])
    }
}
