import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReports
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import PinGuardTestSupport

/// Nesting in source files never overflows the stack: the TrustKit reader refuses literals nested deeper than
/// `ImportLimits.maxNestingDepth` (or holding more than `ImportLimits.maxNodes` values), and the bracket tables the
/// OkHttp reader uses are built without recursion, so any nesting within the token limit reads in linear work: four
/// times the nesting costs less than eight times the CPU time (`WorkGrowth`), whatever the machine's speed.
final class ImportSourceNestingLimitsTests: XCTestCase {
    typealias S = HostileSource
    let h = ImportTestSupport.h
    let tooDeep = "nested deeper than 128 levels; refused"

    func testDeeplyNestedTrustKitReproducersAreRefusedWithOneLine() throws {
        for (name, shape, depth) in [("trustkit-swift-nested-12000-segv.swift", HostileShapes.swiftNested, 12_000),
                                      ("trustkit-objc-nested-20000-segv.m", HostileShapes.objcNested, 20_000)] {
            let bytes = try S.repro(name)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), shape(depth), "the reproducer is the shape measured below")
            let o = S.run(.trustkit, bytes, file: name)
            XCTAssertEqual(o.error?.description, "\(name):1: \(tooDeep)")
            XCTAssertEqual(o.error?.exceedsLimit, true)
            XCTAssertEqual(o.error?.findings, [])
            S.assertGrowth(.trustkit, file: name, small: shape(depth), large: shape(4 * depth), below: 8, "\(name) four times as deep")
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

    func testNestingFarPastTheLimitIsRefusedInLinearWork() {
        for ((file, text), (quarter, whole)) in zip(nestings(depth: 100_000), zip(nestings(depth: 12_500), nestings(depth: 50_000))) {
            let o = S.run(.trustkit, text, file: file)
            XCTAssertEqual(o.error?.message, tooDeep, file)
            S.assertGrowth(.trustkit, file: file, small: quarter.text, large: whole.text, below: 8, "\(file): 50,000 levels against 12,500")
        }
        func unclosed(_ count: Int) -> String { "import TrustKit\n" + S.swiftConfig(String(repeating: "[", count: count)) }
        let o = S.run(.trustkit, unclosed(300_000), file: "unclosed.swift")
        XCTAssertNotNil(o.error, "an unclosed literal is no dictionary")
        S.assertGrowth(.trustkit, file: "unclosed.swift", small: unclosed(37_500), large: unclosed(150_000), below: 8,
                       "150,000 unclosed brackets against 37,500")
    }

    func testALiteralOfMoreThanTheValueLimitIsRefusedInLinearWork() {
        func values(_ count: Int) -> String { "import TrustKit\n" + S.swiftConfig("[\(Array(repeating: "1", count: count).joined(separator: ", "))]") }
        let o = S.run(.trustkit, values(ImportLimits.maxNodes), file: "values.swift")
        XCTAssertEqual(o.error?.description, "values.swift:2: more than 100000 values; refused")
        S.assertGrowth(.trustkit, file: "values.swift", small: values(ImportLimits.maxNodes / 4), large: values(ImportLimits.maxNodes), below: 8,
                       "100,000 values against 25,000")
    }

    /// Kotlin and Java sources with brackets of each kind nested `deep` levels (calls: `deep` / 7.5).
    func bracketCases(deep: Int) -> [(String, String)] {
        let pin = "\"sha256/\(h[0])\""
        let calls = deep * 2 / 15
        return [
            ("parens.kt", "val p = CertificatePinner.Builder().add(" + S.nested("(", ")", depth: deep, inner: "\"a.example.com\"") + ", \(pin)).build()\n"),
            ("braces.kt", "val p = CertificatePinner.Builder().apply " + S.nested("{", "}", depth: deep, inner: "add(\"a.example.com\", \(pin))") + "\n"),
            ("arrays.kt", "val A = " + S.nested("arrayOf(", ")", depth: deep, inner: pin) + "\nval p = CertificatePinner.Builder().add(\"a.example.com\", *A).build()\n"),
            ("calls.kt", "val p = CertificatePinner.Builder()" + String(repeating: ".add(\"a.example.com\", \(pin)", count: calls) + String(repeating: ")", count: calls) + "\n"),
            ("Arrays.java", "CertificatePinner p = new CertificatePinner.Builder().add(\"a.example.com\", new String[] " + S.nested("{", "}", depth: deep, inner: pin) + ").build();\n"),
        ]
    }

    func testNestedBracketsInKotlinAndJavaAreReadWithoutRecursionInLinearWork() throws {
        for ((file, text), (quarter, whole)) in zip(bracketCases(deep: 150_000), zip(bracketCases(deep: 18_750), bracketCases(deep: 75_000))) {
            let o = S.run(.okhttp, text, file: file)
            XCTAssertTrue(o.result != nil || o.error != nil, file)
            S.assertGrowth(.okhttp, file: file, small: quarter.1, large: whole.1, below: 8, "\(file): 75,000 levels against 18,750")
        }
        let name = "okhttp-nested-add-8000.kt"
        let o = S.run(.okhttp, try S.repro(name), file: name)
        XCTAssertEqual(o.error?.message, "nothing to import: no usable okhttp pin configuration found")
        S.assertGrowth(.okhttp, file: name, small: HostileShapes.okhttpNestedAdd(2_000), large: HostileShapes.okhttpNestedAdd(8_000), below: 8, "\(name) against a quarter of its calls")
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
