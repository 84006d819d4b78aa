import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReports
@testable import PinGuardReaders
import PinGuardReadersTestSupport

/// Nesting in source files never overflows the stack: the TrustKit reader refuses literals nested deeper than
/// `ImportLimits.maxNestingDepth` (or holding more than `ImportLimits.maxNodes` values), and the bracket tables the
/// OkHttp reader uses are built without recursion, so any nesting within the token limit reads in linear time.
final class ImportSourceNestingLimitsTests: XCTestCase {
    typealias S = HostileSource
    let h = ImportTestSupport.h
    let tooDeep = "nested deeper than 128 levels; refused"

    func testDeeplyNestedTrustKitReproducersAreRefusedWithOneLine() throws {
        for name in ["trustkit-swift-nested-12000-segv.swift", "trustkit-objc-nested-20000-segv.m"] {
            let o = S.run(.trustkit, try S.repro(name), file: name)
            XCTAssertLessThan(o.seconds, 2, name)
            XCTAssertEqual(o.error?.description, "\(name):1: \(tooDeep)")
            XCTAssertEqual(o.error?.exceedsLimit, true)
            XCTAssertEqual(o.error?.findings, [])
        }
    }

    /// Literals of each bracket kind around `TSKPinnedDomains`'s value, `depth` levels below the configuration.
    func nestings(depth: Int) -> [(file: String, text: String)] {
        let n = { (open: String, close: String) in S.nested(open, close, depth: depth, inner: "1") }
        return [
            ("arrays.swift", "import TrustKit\n" + S.swiftConfig(n("[", "]"))),
            ("dictionaries.swift", "import TrustKit\n" + S.swiftConfig(n("[\"a\": ", "]"))),
            ("mixed.swift", "import TrustKit\n" + S.swiftConfig(S.nested("[\"a\": [", "]]", depth: depth / 2, inner: "1"))),
            ("arrays.m", "#import <TrustKit/TrustKit.h>\n" + S.objcConfig(n("@[", "]"))),
            ("dictionaries.m", "#import <TrustKit/TrustKit.h>\n" + S.objcConfig(n("@{@\"a\": ", "}"))),
            ("boxed.m", "#import <TrustKit/TrustKit.h>\n" + S.objcConfig(n("@[@(YES), ", "]"))),
        ]
    }

    func testEveryBracketKindIsRefusedOneLevelPastTheLimit() {
        // The configuration dictionary is level 1: 127 more levels are read, 128 are refused.
        for (file, text) in nestings(depth: 127) {
            let o = S.run(.trustkit, text, file: file)
            XCTAssertNotEqual(o.error?.message, tooDeep, file)
        }
        for (file, text) in nestings(depth: 128) {
            let o = S.run(.trustkit, text, file: file)
            XCTAssertEqual(o.error?.message, tooDeep, file)
            XCTAssertEqual(o.error?.line, 2, file)
        }
    }

    func testNestingFarPastTheLimitEndsQuickly() {
        for (file, text) in nestings(depth: 100_000) {
            let o = S.run(.trustkit, text, file: file)
            XCTAssertLessThan(o.seconds, 2, file)
            XCTAssertEqual(o.error?.message, tooDeep, file)
        }
        let unclosed = "import TrustKit\n" + S.swiftConfig(String(repeating: "[", count: 300_000))
        let o = S.run(.trustkit, unclosed, file: "unclosed.swift")
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertNotNil(o.error, "an unclosed literal is no dictionary")
    }

    func testALiteralOfMoreThanTheValueLimitIsRefused() {
        let items = Array(repeating: "1", count: ImportLimits.maxNodes).joined(separator: ", ")
        let o = S.run(.trustkit, "import TrustKit\n" + S.swiftConfig("[\(items)]"), file: "values.swift")
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertEqual(o.error?.description, "values.swift:2: more than 100000 values; refused")
    }

    func testNestedBracketsInKotlinAndJavaAreReadWithoutRecursion() throws {
        let pin = "\"sha256/\(h[0])\""
        let deep = 150_000
        let cases: [(String, String)] = [
            ("parens.kt", "val p = CertificatePinner.Builder().add(" + S.nested("(", ")", depth: deep, inner: "\"a.example.com\"") + ", \(pin)).build()\n"),
            ("braces.kt", "val p = CertificatePinner.Builder().apply " + S.nested("{", "}", depth: deep, inner: "add(\"a.example.com\", \(pin))") + "\n"),
            ("arrays.kt", "val A = " + S.nested("arrayOf(", ")", depth: deep, inner: pin) + "\nval p = CertificatePinner.Builder().add(\"a.example.com\", *A).build()\n"),
            ("calls.kt", "val p = CertificatePinner.Builder()" + String(repeating: ".add(\"a.example.com\", \(pin)", count: 20_000) + String(repeating: ")", count: 20_000) + "\n"),
            ("Arrays.java", "CertificatePinner p = new CertificatePinner.Builder().add(\"a.example.com\", new String[] " + S.nested("{", "}", depth: deep, inner: pin) + ").build();\n"),
        ]
        for (file, text) in cases {
            let o = S.run(.okhttp, text, file: file)
            XCTAssertLessThan(o.seconds, 2, file)
            XCTAssertTrue(o.result != nil || o.error != nil, file)
        }
        let name = "okhttp-nested-add-8000.kt"
        let o = S.run(.okhttp, try S.repro(name), file: name)
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertEqual(o.error?.message, "nothing to import: no usable okhttp pin configuration found")
    }

    func testLintReportsAFilePastALimitAsUnreadable() throws {
        let name = "trustkit-swift-nested-12000-segv.swift"
        let bytes = try S.repro(name)
        XCTAssertThrowsError(try NativeLinter.lint(bytes, file: name, format: .trustkit, now: ImportTestSupport.now,
                                                   publicSuffixes: PublicSuffixList(text: "com\n"))) { error in
            XCTAssertEqual((error as? ImportError)?.description, "\(name):1: \(tooDeep)")
        }
        // A constant too long to resolve is a finding of a file that was read.
        let doubling = try S.repro("okhttp-const-doubling-26.kt")
        let r = try NativeLinter.lint(doubling, file: "d.kt", format: .okhttp, now: ImportTestSupport.now,
                                      publicSuffixes: PublicSuffixList(text: "com\n"))
        XCTAssertTrue(r.findings.contains { $0.line == 15 && $0.message.hasPrefix("C14 is longer than 65536 bytes") }, "\(r.findings)")
    }
}
