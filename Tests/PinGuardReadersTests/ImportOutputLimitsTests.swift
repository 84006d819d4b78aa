import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport

/// An import produces at most `ImportLimits.maxImportedRules` rules and `ImportLimits.maxImportedPins` pins, so the
/// policy it writes always reads back within the policy reader's 500,000-node budget; past either limit it is
/// refused with one line naming the limits, never with an internal error. Pins are collected in linear work: the
/// bounds are on how the CPU time grows with the input (`WorkGrowth`), which no machine's speed changes.
final class ImportOutputLimitsTests: XCTestCase {
    typealias S = HostileSource
    let h = ImportTestSupport.h

    /// A distinct pin hash for every `k` below 65,536.
    func hash(_ k: Int) -> String {
        Base64.encode([UInt8(k >> 8), UInt8(k & 0xFF)] + [UInt8](repeating: 7, count: 30))
    }

    /// `calls` sequential `add()` calls, as `Tests/Fixtures/repro/gen_okhttp_seq.py` writes them.
    func sequentialCalls(_ calls: Int) -> String {
        var text = "val p = CertificatePinner.Builder()"
        for k in 0..<calls { text += ".add(\"h\(k).example.com\", \"sha256/\(h[0])\", \"sha256/\(h[1])\")\n" }
        return text + ".build()\n"
    }

    func testMoreRulesThanTheLimitAreRefusedInsteadOfAnInternalErrorInLinearWork() throws {
        let o = S.run(.okhttp, sequentialCalls(20_000), file: "seq.kt")
        let e = try XCTUnwrap(o.error)
        XCTAssertEqual(e.description, "seq.kt:10001: more than 10000 rules: an import produces at most 10000 rules and 25000 pins; refused (split the configuration)")
        XCTAssertTrue(e.exceedsLimit)
        XCTAssertEqual(e.findings, [])
        // Twice the calls past the limit (3.5 MB, within the input limit) are refused at the same rule: the work
        // up to the refusal is the same, and the rest is at most a linear scan.
        S.assertGrowth(.okhttp, file: "seq.kt", small: sequentialCalls(12_500), large: sequentialCalls(25_000), below: 3,
                       "refusing 25,000 add() calls against 12,500")
    }

    /// Kotlin sources of each shape holding `scale` times just past the pins an import produces.
    func pinShapes(scale: Int) -> [(file: String, text: String)] {
        let pins = (0..<25_001 * scale).map { "\"sha256/\(hash($0))\"" }
        return [
            ("one-call.kt", "val p = CertificatePinner.Builder().add(\"a.example.com\", \(pins.joined(separator: ", "))).build()\n"),
            ("repeated.kt", "val p = CertificatePinner.Builder()\n" + pins.map { ".add(\"a.example.com\", \($0))\n" }.joined() + ".build()\n"),
            ("spread.kt", "val PINS = arrayOf(\(pins.joined(separator: ", ")))\nval p = CertificatePinner.Builder().add(\"a.example.com\", *PINS).build()\n"),
            // The pins of **.example.com apply to every host under it: 5,001 rules of 5 pins each.
            ("broadcast.kt", "val p = CertificatePinner.Builder().add(\"**.example.com\", \(pins.prefix(5 * scale).joined(separator: ", ")))\n"
                + (0..<5_000).map { ".add(\"h\($0).example.com\", \(pins[0]))\n" }.joined() + ".build()\n"),
        ]
    }

    /// A Swift TrustKit configuration of one domain with `count` hashes.
    func trustKitPins(_ count: Int) -> String {
        "import TrustKit\n" + S.swiftConfig("[\"a.example.com\": [kTSKPublicKeyHashes: [\((0..<count).map { "\"\(hash($0))\"" }.joined(separator: ", "))]]]")
    }

    func testMorePinsThanTheLimitAreRefusedWhateverTheirShapeInLinearWork() throws {
        for ((file, text), (_, twice)) in zip(pinShapes(scale: 1), pinShapes(scale: 2)) {
            let o = S.run(.okhttp, text, file: file)
            XCTAssertEqual(o.error?.message, "more than 25000 pins in all: an import produces at most 10000 rules and 25000 pins; refused (split the configuration)", file)
            S.assertGrowth(.okhttp, file: file, small: text, large: twice, below: 3, "\(file): refusing twice the pins")
        }
        let o = S.run(.trustkit, trustKitPins(25_001), file: "pins.swift")
        XCTAssertEqual(o.error?.message.hasPrefix("more than 25000 pins in all"), true, "\(String(describing: o.error))")
        S.assertGrowth(.trustkit, file: "pins.swift", small: trustKitPins(25_001), large: trustKitPins(50_002), below: 3,
                       "pins.swift: refusing twice the hashes")
    }

    /// `chains` chains of 100 domains, each with subdomains included, each nested in the one before.
    func nestedDomains(chains: Int) -> String {
        let pins = "[\"\(h[0])\", \"\(h[1])\"]"
        var domains: [String] = []
        for chain in 0..<chains {
            for level in 0..<100 {
                let host = String(repeating: "a.", count: level) + "c\(chain).example.com"
                domains.append("\"\(host)\": [kTSKIncludeSubdomains: true, kTSKPublicKeyHashes: \(pins)]")
            }
        }
        return "import TrustKit\n" + S.swiftConfig("[\(domains.joined(separator: ",\n"))]")
    }

    func testManyNestedSubdomainsAreNotedOncePerDomainInLinearWork() throws {
        let o = S.run(.trustkit, nestedDomains(chains: 20), file: "nested.swift")
        // Four times the domains: about four times the work when each is looked up by its parents, sixteen times
        // when every pair of domains is compared.
        S.assertGrowth(.trustkit, file: "nested.swift", small: nestedDomains(chains: 5), large: nestedDomains(chains: 20), below: 8,
                       "2,000 nested domains against 500")
        let notes = o.messages(containing: "TrustKit may apply")
        XCTAssertEqual(notes.count, 20 * 99, "one note per inner domain, not one per pair")
        XCTAssertTrue(notes.contains("hosts under **.a.a.c0.example.com also match **.a.c0.example.com and 1 broader pattern(s): TrustKit may apply any of these policies (its lookup order is undefined); pinguard applies the longest one"))
        XCTAssertTrue(notes.contains("hosts under **.a.c0.example.com also match **.c0.example.com: TrustKit may apply either policy (its lookup order is undefined); pinguard applies the longer one"))
    }

    func testAPolicyAtBothLimitsReadsBackWithinTheNodeBudget() throws {
        // Every optional key the writer emits (match, expires, group), the worst case for the node count.
        var draft = ImportDraft(file: "limits", format: .nspinneddomains)
        var next = 0
        for k in 0..<ImportLimits.maxImportedRules {
            let count = k < ImportLimits.maxImportedPins - 2 * ImportLimits.maxImportedRules ? 3 : 2
            let pins = (0..<count).map { _ in
                defer { next += 1 }
                return Pin(type: .spki, hash: hash(next), role: .primary, scope: .leaf, group: "leaf")
            }
            let policy = HostPolicy(pins: pins, expires: Date(timeIntervalSince1970: 1_900_000_000), matchMode: .eachGroup)
            draft.add(ImportedRule(pattern: try HostPattern.parse("h\(k).example.com"), policy: policy, line: k + 1, origin: []))
        }
        XCTAssertEqual(next, ImportLimits.maxImportedPins)
        let r = try draft.finish(name: "app", environment: "prod")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, ImportLimits.maxImportedRules)
    }
}
