import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport

/// Constants of Kotlin, Java, Swift and Objective-C sources resolve within bounds: a value longer than
/// `ImportLimits.maxResolvedStringBytes` is left unresolved with a warning at its definition, and resolution as a
/// whole produces at most 8 bytes per byte of input (at least 1 MiB) before the import is refused. The 2 s bounds
/// are generous bounds on a debug build, not benchmarks.
final class ImportSourceConstantsLimitsTests: XCTestCase {
    typealias S = HostileSource
    let h = ImportTestSupport.h
    let tooLong = "is longer than 65536 bytes once resolved; left unresolved, with every constant built from it"

    func testDoublingConstantReproducersEndQuicklyWithTheConstantUnresolved() throws {
        for (name, constant, line) in [("okhttp-const-doubling-26.kt", "C14", 15), ("okhttp-const-doubling-28.kt", "C14", 15)] {
            let o = S.run(.okhttp, try S.repro(name), file: name)
            XCTAssertLessThan(o.seconds, 2, name)
            XCTAssertEqual(o.error?.message, "nothing to import: no usable okhttp pin configuration found", name)
            XCTAssertEqual(o.findings.first?.description, "\(name):\(line): warning: \(constant) \(tooLong)")
        }
        let name = "trustkit-swift-const-doubling-28.swift"
        let o = S.run(.trustkit, try S.repro(name), file: name)
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertEqual(o.messages(containing: tooLong), ["c14 \(tooLong)"])
        let rule = try XCTUnwrap(o.result.flatMap { ImportTestSupport.rule($0, "api.example.com") })
        XCTAssertEqual(rule.policy.pins.map(\.hash), [h[1]], "only the literal pin is read")
    }

    func testEveryWayOfDeclaringAConstantIsBoundedWhenChained() {
        let pin = "\"sha256/\" + C40"
        let okhttp: [(String, String)] = [
            ("val.kt", S.chain { "val \($0) = \($1)" } + S.okhttpPinner(pin)),
            ("const.kt", "object Pins {\n" + S.chain { "    const val \($0) = \($1)" } + "}\n" + S.okhttpPinner("\"sha256/\" + Pins.C40")),
            ("typed.kt", S.chain { "private val \($0): String = \($1)" } + S.okhttpPinner(pin)),
            ("wide.kt", S.chain(count: 8, fanOut: 8) { "val \($0) = \($1)" } + S.okhttpPinner("\"sha256/\" + C8")),
            ("Pins.java", "class Pins {\n" + S.chain { "  static final String \($0) = \($1);" } + S.okhttpPinner(pin, java: true) + "}\n"),
        ]
        let trustkit: [(String, String)] = [
            ("let.swift", "import TrustKit\n" + S.chain { "let \($0) = \($1)" } + S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [C40, \"\(h[1])\"]]]")),
            ("static.swift", "import TrustKit\nstruct K {\n" + S.chain { "    static let \($0): String = \($1)" } + "}\n"
                + S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [K.C40, \"\(h[1])\"]]]")),
            ("define.m", "#import <TrustKit/TrustKit.h>\n" + S.chain { "#define \($0) \($1)" }
                + S.objcConfig("@{@\"a.example.com\": @{kTSKPublicKeyHashes: @[C40, @\"\(h[1])\"]}}")),
            ("const.m", "#import <TrustKit/TrustKit.h>\n" + S.chain { "NSString * const \($0) = \($1);" }
                + S.objcConfig("@{@\"a.example.com\": @{kTSKPublicKeyHashes: @[C40, @\"\(h[1])\"]}}")),
        ]
        for (file, text, format) in okhttp.map({ ($0.0, $0.1, PolicyImportFormat.okhttp) }) + trustkit.map({ ($0.0, $0.1, .trustkit) }) {
            let o = S.run(format, text, file: file)
            XCTAssertLessThan(o.seconds, 2, file)
            let expected = file.hasPrefix("wide") ? "C5" : "C14"
            XCTAssertEqual(o.messages(containing: tooLong), ["\(expected) \(tooLong)"], file)
            XCTAssertTrue(o.findings.allSatisfy { !$0.message.contains("unresolved: not defined") }, "\(file): \(o.findings)")
        }
    }

    func testTemplatesAndInterpolationAreNotExpanded() {
        var kotlin = "val C0 = \"aaaaaaaa\"\n", swift = "import TrustKit\nlet C0 = \"aaaaaaaa\"\n"
        for k in 1...40 {
            kotlin += "val C\(k) = \"${C\(k - 1)}${C\(k - 1)}\"\n"
            swift += "let C\(k) = \"\\(C\(k - 1))\\(C\(k - 1))\"\n"
        }
        kotlin += S.okhttpPinner("\"sha256/\" + C40")
        swift += S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [C40, \"\(h[1])\"]]]")
        for (format, text, file) in [(PolicyImportFormat.okhttp, kotlin, "t.kt"), (.trustkit, swift, "t.swift")] {
            let o = S.run(format, text, file: file)
            XCTAssertLessThan(o.seconds, 2, file)
            XCTAssertTrue(o.messages(containing: tooLong).isEmpty, "\(file): a template is no constant, so nothing grows")
        }
    }

    func testAValueOfExactlyTheLimitResolvesAndIsQuotedShortInFindings() throws {
        // C13 is 8 * 2^13 = 65,536 bytes: resolved, and refused as a pin with its text cut short.
        let text = S.chain(count: 13) { "val \($0) = \($1)" } + S.okhttpPinner("C13")
        let o = S.run(.okhttp, text, file: "edge.kt")
        XCTAssertTrue(o.messages(containing: tooLong).isEmpty)
        let refused = try XCTUnwrap(o.messages(containing: "OkHttp pins must start with sha256/").first)
        XCTAssertTrue(refused.hasPrefix("\"" + String(repeating: "a", count: 200) + "\"…: "), String(refused.prefix(300)))
    }

    func testManyReferencesToALongConstantAreRefusedPastTheResolutionBudget() throws {
        var text = "val BIG = \"sha256/" + String(repeating: "x", count: 60_000) + "\"\nval p = CertificatePinner.Builder()\n"
        for k in 0..<2_000 { text += "    .add(\"h\(k).example.com\", BIG)\n" }
        let o = S.run(.okhttp, text + "    .build()\n", file: "refs.kt")
        XCTAssertLessThan(o.seconds, 2)
        let e = try XCTUnwrap(o.error)
        XCTAssertTrue(e.exceedsLimit)
        XCTAssertEqual(e.message, "constant expressions resolve to more than 1048576 bytes in all (8 per byte of input, at least 1048576); refused")
        XCTAssertEqual(e.line, 19, "BIG once, then 16 calls of 60,022 bytes each (BIG and the host) stay within 1 MiB; the 17th does not")
    }

    func testManySpreadsOfALargeArrayConstantAreRefusedPastTheResolutionBudget() throws {
        let items = (0..<2_000).map { "\"sha256/\(Base64.encode([UInt8](repeating: UInt8($0 % 251), count: 31) + [UInt8($0 / 251)]))\"" }
        var text = "val PINS = arrayOf(\(items.joined(separator: ", ")))\nval p = CertificatePinner.Builder()\n"
        for k in 0..<2_000 { text += "    .add(\"h\(k).example.com\", *PINS)\n" }
        let o = S.run(.okhttp, text + "    .build()\n", file: "spread.kt")
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertEqual(o.error?.exceedsLimit, true)
        XCTAssertTrue(o.error?.message.hasPrefix("constant expressions resolve to more than") == true, "\(String(describing: o.error))")
    }

    func testConcatenationOfManyTermsIsCutAtTheLimit() {
        let terms = Array(repeating: "\"abcdefgh\"", count: 100_000).joined(separator: " + ")
        let o = S.run(.okhttp, "val X = \(terms)\n" + S.okhttpPinner("X"), file: "terms.kt")
        XCTAssertLessThan(o.seconds, 2)
        XCTAssertEqual(o.messages(containing: tooLong), ["X \(tooLong)"])
    }

    func testReferencesToASmallConstantStayWellWithinTheBudget() throws {
        var text = "private const val PIN = \"sha256/\(h[0])\"\nval p = CertificatePinner.Builder()\n"
        for k in 0..<2_000 { text += "    .add(\"h\(k).example.com\", PIN, \"sha256/\" + \"\(h[1])\")\n" }
        let o = S.run(.okhttp, text + "    .build()\n", file: "small.kt")
        XCTAssertNil(o.error)
        XCTAssertEqual(o.result?.policySet.environments["prod"]?.rules.count, 2_000)
    }
}
