import Foundation
import XCTest

/// Each Swift target imports exactly the modules it declares in Package.swift: nothing reached through another
/// target's dependencies, and no declared dependency left unused.
final class PackageImportsTests: XCTestCase {
    /// Modules of the toolchain and the system, never declared.
    static let system: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "XCTest", "Synchronization"]
    /// Modules a declared product brings with it: Yams's libyaml, read directly for its budgets.
    static let broughtBy: [String: String] = ["CYaml": "Yams"]

    struct Declared {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// Every target of the manifest with its folder and the modules it declares.
    static func targets() throws -> [Declared] {
        let manifest = try String(contentsOf: PackageLayerTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget)\(name: "([^"]+)""#)
        let ns = manifest as NSString
        return pattern.matches(in: manifest, range: NSRange(location: 0, length: ns.length)).map { match in
            let kind = ns.substring(with: match.range(at: 1)), name = ns.substring(with: match.range(at: 2))
            let body = balanced(ns.substring(from: match.range.location + match.range.length))
            let path = captures(#"path: "([^"]+)""#, in: body).first ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            let list = body.range(of: "dependencies: [").map { String(body[$0.upperBound...]) }.map(balancedList) ?? ""
            // Every quoted name but a product's package: `"PinGuardCore"`, `.product(name: "NIOCore", package: "swift-nio")`.
            let names = quoted(in: list).filter { !$0.isPackage }.map(\.text)
            return Declared(name: name, path: path, dependencies: Set(names))
        }
    }

    /// The text up to the parenthesis that closes the one opened just before it.
    private static func balanced(_ text: String) -> String { String(text.prefix(upTo(in: text, open: "(", close: ")"))) }

    private static func balancedList(_ text: String) -> String { String(text.prefix(upTo(in: text, open: "[", close: "]"))) }

    private static func upTo(in text: String, open: Character, close: Character) -> Int {
        var depth = 1, n = 0
        for c in text {
            if c == open { depth += 1 } else if c == close { depth -= 1; if depth == 0 { return n } }
            n += 1
        }
        return n
    }

    private static func quoted(in text: String) -> [(text: String, isPackage: Bool)] {
        let re = try! NSRegularExpression(pattern: #"(package: )?"([^"]*)""#)
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            (ns.substring(with: $0.range(at: 2)), $0.range(at: 1).location != NSNotFound)
        }
    }

    private static func captures(_ pattern: String, in text: String) -> [String] {
        let re = try! NSRegularExpression(pattern: pattern)
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }

    /// The modules the Swift files under `path` import, with the files that import each.
    static func imports(under path: String) -> [String: [String]] {
        let dir = PackageLayerTests.root.appendingPathComponent(path)
        let files = (FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Fixtures/") }
        var out: [String: [String]] = [:]
        for file in files {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8) else { continue }
            for module in captures(#"(?m)^(?:@testable |@_implementationOnly |package |public |internal )?import ([A-Za-z0-9_]+)"#, in: text) {
                out[module, default: []].append(file)
            }
        }
        return out
    }

    func testEachTargetImportsWhatItDeclaresAndDeclaresWhatItImports() throws {
        let targets = try Self.targets()
        XCTAssertGreaterThan(targets.count, 20)
        var checked = 0
        for target in targets {
            let imported = Self.imports(under: target.path)
            guard !imported.isEmpty else { continue } // C and system library targets
            checked += 1
            for (module, files) in imported where !Self.system.contains(module) && module != target.name {
                let declaredVia = Self.broughtBy[module].map { target.dependencies.contains($0) } ?? false
                XCTAssertTrue(target.dependencies.contains(module) || declaredVia,
                              "\(target.name) imports \(module) (\(files.sorted().prefix(2).joined(separator: ", "))) without declaring it")
            }
            for dependency in target.dependencies where imported[dependency] == nil {
                let linkedOnly = dependency == "PinGuardTestKeyDecoding" && target.name != "PinGuardCryptoTests"
                XCTAssertTrue(linkedOnly, "\(target.name) declares \(dependency) but no file of it imports it")
            }
        }
        XCTAssertGreaterThan(checked, 15, "the Swift targets were found")
    }
}
