import Foundation
import XCTest

/// Each Swift target imports exactly the modules it declares in Package.swift: every module imported is declared
/// (nothing reached through another target's dependencies), and every dependency declared is used, imported by at
/// least one of the target's files.
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

    /// The Swift files under `path` (fixtures aside), relative to it.
    static func swiftFiles(under path: String) -> [String] {
        let dir = PackageLayerTests.root.appendingPathComponent(path)
        return (FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Fixtures/") }
    }

    /// The modules the Swift files under `path` import, with the files that import each.
    static func imports(under path: String) -> [String: [String]] {
        let dir = PackageLayerTests.root.appendingPathComponent(path)
        var out: [String: [String]] = [:]
        for file in swiftFiles(under: path) {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8) else { continue }
            for module in imports(in: text) { out[module, default: []].append(file) }
        }
        return out
    }

    /// The modules `text` imports: every import declaration at the start of a line, with any attributes
    /// (`@testable`, `@preconcurrency`, ...), access level and kind (`import struct Module.Type`). An import inside a
    /// string literal is indented in this package's sources and is not one.
    static func imports(in text: String) -> [String] {
        let attributes = #"(?:@[A-Za-z_]+(?:\([^)]*\))? +)*"#
        let access = #"(?:(?:public|package|internal|fileprivate|private) +)?"#
        let kind = #"(?:(?:typealias|struct|class|enum|protocol|let|var|func) +)?"#
        return captures("(?m)^" + attributes + access + "import +" + kind + "([A-Za-z0-9_]+)", in: text)
    }

    /// Every module a target's files import is one it declares (or a module of the system, or one a declared product
    /// brings): nothing is reached through another target's dependencies.
    func testEveryImportedModuleIsDeclared() throws {
        for target in try Self.swiftTargets() {
            for (module, files) in Self.imports(under: target.path) where !Self.system.contains(module) && module != target.name {
                let declaredVia = Self.broughtBy[module].map { target.dependencies.contains($0) } ?? false
                XCTAssertTrue(target.dependencies.contains(module) || declaredVia,
                              "\(target.name) imports \(module) (\(files.sorted().prefix(2).joined(separator: ", "))) without declaring it")
            }
        }
    }

    /// Every dependency a target declares is used: at least one of its files imports it. A dependency kept only in the
    /// manifest would link, and be built for, nothing.
    func testEveryDeclaredDependencyIsImported() throws {
        for target in try Self.swiftTargets() {
            let imported = Self.imports(under: target.path)
            for dependency in target.dependencies where imported[dependency] == nil {
                let linkedOnly = dependency == "PinGuardTestKeyDecoding" && target.name != "PinGuardCryptoTests"
                XCTAssertTrue(linkedOnly, "\(target.name) declares \(dependency) but no file of it imports it")
            }
        }
    }

    /// The targets written in Swift, C and system-library targets aside; more than a handful, so that the manifest
    /// was read.
    static func swiftTargets() throws -> [Declared] {
        let targets = try targets().filter { !swiftFiles(under: $0.path).isEmpty }
        XCTAssertGreaterThan(targets.count, 15, "the Swift targets were found")
        return targets
    }

    /// The reader of imports sees every form of the declaration, and nothing in a string literal.
    func testImportsAreReadInEveryForm() {
        let text = """
        import Foundation
        @testable import PinGuardCore
        @preconcurrency import NIOCore
        @_spi(Testing) public import PinGuardReaders
        package import PinGuardFiles
        import struct PinGuardCrypto.TrustStore
        let script = \"\"\"
            import socket, sys
            \"\"\"
        """
        XCTAssertEqual(Self.imports(in: text), ["Foundation", "PinGuardCore", "NIOCore", "PinGuardReaders", "PinGuardFiles", "PinGuardCrypto"])
    }
}
