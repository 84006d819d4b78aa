import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders
import PinGuardReadersTestSupport
import PinGuardTestSupport

/// Inputs and helpers shared by the source readers' limit tests (OkHttp Kotlin/Java, TrustKit Swift/Objective-C).
enum HostileSource {
    /// What importing a file gave: the result, or the error; and the findings of either.
    struct Outcome {
        var result: ImportResult?
        var error: ImportError?
        var findings: [ImportFinding] { result?.findings ?? error?.findings ?? [] }

        /// Messages of the findings containing `text`.
        func messages(containing text: String) -> [String] {
            findings.map(\.message).filter { $0.contains(text) }
        }
    }

    /// Bytes of reproducer `name` of `Tests/Fixtures/repro/`; throws when it is missing.
    static func repro(_ name: String) throws -> [UInt8] {
        let url = ImportTestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/repro/\(name)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            struct Missing: Error, CustomStringConvertible { let description: String }
            throw Missing(description: "reproducer \(url.path) is not present")
        }
        return [UInt8](data)
    }

    /// Imports `bytes`.
    static func run(_ format: PolicyImportFormat, _ bytes: [UInt8], file: String, defines: [String: String] = [:]) -> Outcome {
        do {
            let r = try PolicyImporter.importPolicy(format: format, contents: bytes, file: file, name: "app", environment: "prod",
                                                    defines: defines)
            return Outcome(result: r, error: nil)
        } catch {
            return Outcome(result: nil, error: error)
        }
    }

    /// Imports `text`.
    static func run(_ format: PolicyImportFormat, _ text: String, file: String) -> Outcome {
        run(format, Array(text.utf8), file: file)
    }

    /// The CPU costs of importing `small` and `large` (`WorkGrowth`): how an importer's work grows from one to the
    /// other, whatever the speed of the machine.
    static func growth(_ format: PolicyImportFormat, file: String, small: String, large: String, below bound: Double) -> WorkGrowth.Costs {
        let s = Array(small.utf8)
        let l = Array(large.utf8)
        return WorkGrowth.costs(below: bound, small: { _ = run(format, s, file: file) }, large: { _ = run(format, l, file: file) })
    }

    /// Fails the test unless importing `large` costs less than `bound` times what importing `small` costs.
    static func assertGrowth(_ format: PolicyImportFormat, file: String, small: String, large: String, below bound: Double,
                             _ what: String, line: UInt = #line) {
        let costs = growth(format, file: file, small: small, large: large, below: bound)
        XCTAssertLessThan(costs.ratio, bound, "\(what): \(costs)", line: line)
    }

    /// Fails the test unless `large` costs less than `bound` times what `small` costs.
    static func assertGrowth(_ what: String, below bound: Double, line: UInt = #line, small: () -> Void, large: () -> Void) {
        let costs = WorkGrowth.costs(below: bound, small: small, large: large)
        XCTAssertLessThan(costs.ratio, bound, "\(what): \(costs)", line: line)
    }

    /// `count` constants after `C0 = "aaaaaaaa"`, each `fanOut` copies of the one before, written by `declare(name, value)`.
    static func chain(count: Int = 40, fanOut: Int = 2, name: String = "C", _ declare: (String, String) -> String) -> String {
        var out = declare("\(name)0", "\"aaaaaaaa\"") + "\n"
        for k in 1...count {
            out += declare("\(name)\(k)", Array(repeating: "\(name)\(k - 1)", count: fanOut).joined(separator: " + ")) + "\n"
        }
        return out
    }

    /// A Kotlin or Java `CertificatePinner` whose first pin is `expression`.
    static func okhttpPinner(_ expression: String, java: Bool = false) -> String {
        let h = ImportTestSupport.h
        return (java ? "CertificatePinner p = new " : "val p = ")
            + "CertificatePinner.Builder().add(\"a.example.com\", \(expression), \"sha256/\(h[1])\").build()" + (java ? ";\n" : "\n")
    }

    /// A Swift TrustKit configuration whose `TSKPinnedDomains` value is `domains`.
    static func swiftConfig(_ domains: String) -> String {
        "let config: [String: Any] = [kTSKSwizzleNetworkDelegates: false, kTSKPinnedDomains: \(domains)]\n"
            + "TrustKit.initSharedInstance(withConfiguration: config)\n"
    }

    /// An Objective-C TrustKit configuration whose `TSKPinnedDomains` value is `domains`.
    static func objcConfig(_ domains: String) -> String {
        "NSDictionary *c = @{kTSKSwizzleNetworkDelegates: @NO, kTSKPinnedDomains: \(domains)};\n"
            + "[TrustKit initSharedInstanceWithConfiguration:c];\n"
    }

    /// `depth` nested `open`…`close` around `inner`.
    static func nested(_ open: String, _ close: String, depth: Int, inner: String) -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }
}
