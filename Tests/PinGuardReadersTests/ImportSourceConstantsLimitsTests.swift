import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import PinGuardTestSupport

/// Constants of Kotlin, Java, Swift and Objective-C sources resolve within bounds: a value longer than
/// `ImportLimits.maxResolvedStringBytes` is left unresolved with a warning at its definition, and resolution as a
/// whole produces at most 8 bytes per byte of input (at least 1 MiB) before the import is refused. The work is
/// bounded by how the CPU time grows with the input (`WorkGrowth`), not by seconds: longer chains of doubling
/// constants cost about what the chain costs, not twice as much per doubling.
final class ImportSourceConstantsLimitsTests: XCTestCase {
    typealias S = HostileSource
    let h = ImportTestSupport.h
    let tooLong = "is longer than 65536 bytes once resolved; left unresolved, with every constant built from it"

    func testDoublingConstantReproducersLeaveTheConstantUnresolvedWithoutDoublingTheWork() throws {
        for (name, constant, line) in [("okhttp-const-doubling-26.kt", "C14", 15), ("okhttp-const-doubling-28.kt", "C14", 15)] {
            let o = S.run(.okhttp, try S.repro(name), file: name)
            XCTAssertEqual(o.error?.message, "nothing to import: no usable okhttp pin configuration found", name)
            XCTAssertEqual(o.findings.first?.description, "\(name):\(line): warning: \(constant) \(tooLong)")
        }
        // Two more doublings: four times the value if it were resolved, about the same work as it is not.
        for count in [26, 28] {
            XCTAssertEqual(String(decoding: try S.repro("okhttp-const-doubling-\(count).kt"), as: UTF8.self), HostileShapes.okhttpDoubling(count))
        }
        S.assertGrowth(.okhttp, file: "d.kt", small: HostileShapes.okhttpDoubling(26), large: HostileShapes.okhttpDoubling(28), below: 2,
                       "28 doublings against 26")
        let name = "trustkit-swift-const-doubling-28.swift"
        let swift = String(decoding: try S.repro(name), as: UTF8.self)
        XCTAssertEqual(swift, HostileShapes.swiftDoubling(28), "the reproducer is the shape measured below")
        let o = S.run(.trustkit, swift, file: name)
        S.assertGrowth(.trustkit, file: name, small: HostileShapes.swiftDoubling(26), large: swift, below: 2, "28 doublings against 26 in Swift")
        XCTAssertEqual(o.messages(containing: tooLong), ["c14 \(tooLong)"])
        let rule = try XCTUnwrap(o.result.flatMap { ImportTestSupport.rule($0, "api.example.com") })
        XCTAssertEqual(rule.policy.pins.map(\.hash), [h[1]], "only the literal pin is read")
    }

    /// Every way of declaring a constant, chained `count` times (`wide.kt`: a fifth as many, each 8 copies of the one
    /// before), a pin built from the 40th (the 8th).
    func declarations(count n: Int) -> [(file: String, text: String, format: PolicyImportFormat)] {
        let pin = "\"sha256/\" + C40"
        let okhttp: [(String, String)] = [
            ("val.kt", S.chain(count: n) { "val \($0) = \($1)" } + S.okhttpPinner(pin)),
            ("const.kt", "object Pins {\n" + S.chain(count: n) { "    const val \($0) = \($1)" } + "}\n" + S.okhttpPinner("\"sha256/\" + Pins.C40")),
            ("typed.kt", S.chain(count: n) { "private val \($0): String = \($1)" } + S.okhttpPinner(pin)),
            ("wide.kt", S.chain(count: n / 5, fanOut: 8) { "val \($0) = \($1)" } + S.okhttpPinner("\"sha256/\" + C8")),
            ("Pins.java", "class Pins {\n" + S.chain(count: n) { "  static final String \($0) = \($1);" } + S.okhttpPinner(pin, java: true) + "}\n"),
        ]
        let trustkit: [(String, String)] = [
            ("let.swift", "import TrustKit\n" + S.chain(count: n) { "let \($0) = \($1)" } + S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [C40, \"\(h[1])\"]]]")),
            ("static.swift", "import TrustKit\nstruct K {\n" + S.chain(count: n) { "    static let \($0): String = \($1)" } + "}\n"
                + S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [K.C40, \"\(h[1])\"]]]")),
            ("define.m", "#import <TrustKit/TrustKit.h>\n" + S.chain(count: n) { "#define \($0) \($1)" }
                + S.objcConfig("@{@\"a.example.com\": @{kTSKPublicKeyHashes: @[C40, @\"\(h[1])\"]}}")),
            ("const.m", "#import <TrustKit/TrustKit.h>\n" + S.chain(count: n) { "NSString * const \($0) = \($1);" }
                + S.objcConfig("@{@\"a.example.com\": @{kTSKPublicKeyHashes: @[C40, @\"\(h[1])\"]}}")),
        ]
        return okhttp.map { ($0.0, $0.1, .okhttp) } + trustkit.map { ($0.0, $0.1, .trustkit) }
    }

    func testEveryWayOfDeclaringAConstantIsBoundedWhenChained() {
        for ((file, text, format), (_, longer, _)) in zip(declarations(count: 40), declarations(count: 160)) {
            let o = S.run(format, text, file: file)
            // Four times the chain: four times the lines to read, where resolving it in full would double the work per line.
            S.assertGrowth(format, file: file, small: text, large: longer, below: 8, "\(file): a chain of 160 against 40")
            let expected = file.hasPrefix("wide") ? "C5" : "C14"
            XCTAssertEqual(o.messages(containing: tooLong), ["\(expected) \(tooLong)"], file)
            XCTAssertTrue(o.findings.allSatisfy { !$0.message.contains("unresolved: not defined") }, "\(file): \(o.findings)")
        }
    }

    /// `count` Kotlin templates and Swift interpolations, each doubling the one before, a pin built from the 40th.
    func templates(count: Int) -> [(format: PolicyImportFormat, text: String, file: String)] {
        var kotlin = "val C0 = \"aaaaaaaa\"\n", swift = "import TrustKit\nlet C0 = \"aaaaaaaa\"\n"
        for k in 1...count {
            kotlin += "val C\(k) = \"${C\(k - 1)}${C\(k - 1)}\"\n"
            swift += "let C\(k) = \"\\(C\(k - 1))\\(C\(k - 1))\"\n"
        }
        kotlin += S.okhttpPinner("\"sha256/\" + C40")
        swift += S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [C40, \"\(h[1])\"]]]")
        return [(.okhttp, kotlin, "t.kt"), (.trustkit, swift, "t.swift")]
    }

    func testTemplatesAndInterpolationAreNotExpanded() {
        for ((format, text, file), (_, longer, _)) in zip(templates(count: 40), templates(count: 160)) {
            let o = S.run(format, text, file: file)
            XCTAssertTrue(o.messages(containing: tooLong).isEmpty, "\(file): a template is no constant, so nothing grows")
            S.assertGrowth(format, file: file, small: text, large: longer, below: 8, "\(file): 160 templates against 40")
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
        func references(_ count: Int) -> String {
            var text = "val BIG = \"sha256/" + String(repeating: "x", count: 60_000) + "\"\nval p = CertificatePinner.Builder()\n"
            for k in 0..<count { text += "    .add(\"h\(k).example.com\", BIG)\n" }
            return text + "    .build()\n"
        }
        let o = S.run(.okhttp, references(2_000), file: "refs.kt")
        // The budget counts the bytes resolved: the refusal's line below is where they pass 1 MiB, a count rather
        // than a time. Past it no reference is resolved, and four times the references cost less than eight times.
        S.assertGrowth(.okhttp, file: "refs.kt", small: references(2_000), large: references(8_000), below: 8, "8,000 references against 2,000")
        let e = try XCTUnwrap(o.error)
        XCTAssertTrue(e.exceedsLimit)
        XCTAssertEqual(e.message, "constant expressions resolve to more than 1048576 bytes in all (8 per byte of input, at least 1048576); refused")
        XCTAssertEqual(e.line, 19, "BIG once, then 16 calls of 60,022 bytes each (BIG and the host) stay within 1 MiB; the 17th does not")
    }

    func testManySpreadsOfALargeArrayConstantAreRefusedPastTheResolutionBudget() throws {
        let items = (0..<2_000).map { "\"sha256/\(Base64.encode([UInt8](repeating: UInt8($0 % 251), count: 31) + [UInt8($0 / 251)]))\"" }
        func spreads(_ count: Int) -> String {
            var text = "val PINS = arrayOf(\(items.joined(separator: ", ")))\nval p = CertificatePinner.Builder()\n"
            for k in 0..<count { text += "    .add(\"h\(k).example.com\", *PINS)\n" }
            return text + "    .build()\n"
        }
        let o = S.run(.okhttp, spreads(2_000), file: "spread.kt")
        S.assertGrowth(.okhttp, file: "spread.kt", small: spreads(2_000), large: spreads(8_000), below: 8, "8,000 spreads against 2,000")
        XCTAssertEqual(o.error?.exceedsLimit, true)
        XCTAssertTrue(o.error?.message.hasPrefix("constant expressions resolve to more than") == true, "\(String(describing: o.error))")
    }

    func testConcatenationOfManyTermsIsCutAtTheLimitInLinearWork() {
        func terms(_ count: Int) -> String {
            "val X = " + Array(repeating: "\"abcdefgh\"", count: count).joined(separator: " + ") + "\n" + S.okhttpPinner("X")
        }
        let o = S.run(.okhttp, terms(100_000), file: "terms.kt")
        XCTAssertEqual(o.messages(containing: tooLong), ["X \(tooLong)"])
        // Each term is appended once: four times the terms, four times the work, where copying the value so far
        // for every term would cost sixteen times as much.
        S.assertGrowth(.okhttp, file: "terms.kt", small: terms(25_000), large: terms(100_000), below: 8, "100,000 terms against 25,000")
    }

    func testReferencesToASmallConstantStayWellWithinTheBudget() throws {
        var text = "private const val PIN = \"sha256/\(h[0])\"\nval p = CertificatePinner.Builder()\n"
        for k in 0..<2_000 { text += "    .add(\"h\(k).example.com\", PIN, \"sha256/\" + \"\(h[1])\")\n" }
        let o = S.run(.okhttp, text + "    .build()\n", file: "small.kt")
        XCTAssertNil(o.error)
        XCTAssertEqual(o.result?.policySet.environments["prod"]?.rules.count, 2_000)
    }
}
