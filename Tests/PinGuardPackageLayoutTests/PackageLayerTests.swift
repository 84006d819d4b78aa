import Foundation
import XCTest

/// The layers of the package stay as drawn: the core judges facts (pure Swift: no C module, no files, no
/// clock), readers and OpenSSL live in their own targets, and the configuration reader does not pull in
/// the network probe.
final class PackageLayerTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func coreSources() throws -> [(path: String, text: String)] {
        let dir = Self.root.appendingPathComponent("Sources/PinGuardCore")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50)
        return try files.map { ($0, try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
    }

    func testCoreImportsFoundationOnly() throws {
        for (path, text) in try coreSources() {
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") && line.hasPrefix("@") {
                XCTAssertEqual(line, "import Foundation", "\(path) imports more than Foundation")
            }
        }
    }

    func testCoreReadsNoClockAndNoFile() throws {
        let forbidden = ["Date()", "Date.now", "FileManager", "FileHandle", "contentsOfFile", "Data(contentsOf", "String(contentsOf", "fopen(", "gettimeofday",
                         "clock_gettime", "ProcessInfo", "DispatchTime.now", "CFAbsoluteTimeGetCurrent", "URLSession"]
        for (path, text) in try coreSources() {
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in forbidden where line.contains(word) {
                    XCTFail("\(path): the core must not read a clock or a file (\(word)): \(line)")
                }
            }
        }
    }

    /// Bytes from outside (JSON, property lists, signed blobs, the public suffix list's text) are parsed by the
    /// readers; the core receives their values.
    func testCoreParsesNoBytesFromOutside() throws {
        let forbidden = ["JSONSerialization.jsonObject", "JSONDecoder", "PropertyListSerialization", "PropertyListDecoder", "XMLParser",
                         "enum DER", "struct SignedBlob", "init(text: String)"]
        for (path, text) in try coreSources() {
            for word in forbidden where text.contains(word) && (path, word) != (Self.sharedDERWalker, "enum DER") {
                XCTFail("\(path): a parser of outside bytes belongs in the readers (\(word))")
            }
        }
    }

    /// The one exception: DER walking, which slices elements and decodes no value, is shared by the readers and the
    /// crypto target from the core, so that OpenSSL's target does not depend on the readers (and libxml2 and Yams).
    static let sharedDERWalker = "Support/DER.swift"

    /// What pinguard writes for people and tools (JSON reports, SARIF, text tables, HTML) is made in the reports
    /// target; the core hands it values.
    func testCoreWritesNoOutputFormat() throws {
        let forbidden = ["JSONSerialization", "<html", "<table", "\"$schema\"", "padding(toLength:"]
        for (path, text) in try coreSources() {
            for word in forbidden where text.contains(word) {
                XCTFail("\(path): an output format belongs in PinGuardReports (\(word))")
            }
        }
    }

    func testTargetDependenciesFollowTheLayers() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        func dependencies(of target: String) throws -> String {
            let start = try XCTUnwrap(manifest.range(of: ".target(name: \"\(target)\""), target)
            let rest = manifest[start.upperBound...]
            let end = try XCTUnwrap(rest.range(of: ")"), target)
            return String(rest[..<end.lowerBound])
        }
        XCTAssertFalse(try dependencies(of: "PinGuardCore").contains("dependencies"), "the core depends on nothing")
        XCTAssertFalse(try dependencies(of: "PinGuardConfig").contains("\"PinGuardProbe\""), "the configuration reader does not need the network probe")
        XCTAssertFalse(try dependencies(of: "PinGuardCrypto").contains("\"PinGuardProbe\""), "OpenSSL's non-network uses stand alone")
        XCTAssertFalse(try dependencies(of: "PinGuardCrypto").contains("\"PinGuardReaders\""), "OpenSSL's target reads DER from the core, not the readers")
        XCTAssertFalse(try dependencies(of: "PinGuardDemo").contains("\"PinGuardService\""), "the demo stands apart from the service that runs it")
        for target in ["PinGuardConfig", "PinGuardState", "PinGuardFiles", "PinGuardReaders", "PinGuardCrypto", "PinGuardCommands"] {
            XCTAssertFalse(try dependencies(of: target).contains("\"PinGuardService\""), "\(target) does not depend on the service")
        }
        // The commands run in-process in their tests and link no event loop.
        XCTAssertFalse(try dependencies(of: "PinGuardCommands").contains("swift-nio"), "the commands do not link NIO")
    }

    /// Every library target has a test target of its own, `NAMETests`, which depends on it: a test of the readers does
    /// not hide among the core's, and a target's tests build with what that target needs.
    func testEveryLibraryTargetHasItsOwnTestTarget() throws {
        let targets = try PackageImportsTests.targets()
        let libraries = targets.filter { $0.path == "Sources/\($0.name)" && $0.name.hasPrefix("PinGuard") }.map(\.name)
        XCTAssertTrue(Set(libraries).isSuperset(of: ["PinGuardCore", "PinGuardReaders", "PinGuardFiles", "PinGuardDemo"]), "\(libraries)")
        let tests = Dictionary(targets.filter { $0.path == "Tests/\($0.name)" && $0.name.hasSuffix("Tests") }.map { ($0.name, $0.dependencies) },
                               uniquingKeysWith: { a, _ in a })
        for library in libraries {
            XCTAssertTrue(tests["\(library)Tests"]?.contains(library) ?? false, "\(library) has no test target \(library)Tests depending on it")
        }
    }

    /// The commands run in-process in their tests: nothing they depend on, however indirectly, is the service, the
    /// guarded fetcher or an event loop, though they read the state file.
    func testTheCommandsReachNeitherTheServiceNorNIO() throws {
        let declared = Dictionary(try PackageImportsTests.targets().map { ($0.name, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
        var reached: Set<String> = []
        var queue = ["PinGuardCommands"]
        while let next = queue.popLast() {
            if reached.insert(next).inserted { queue += declared[next] ?? [] }
        }
        XCTAssertTrue(reached.isSuperset(of: ["PinGuardState", "PinGuardConfig", "PinGuardProbe"]), "\(reached.sorted())")
        for name in reached {
            XCTAssertFalse(name.hasPrefix("NIO") || ["PinGuardService", "PinGuardFetch"].contains(name),
                           "PinGuardCommands reaches \(name)")
        }
    }

    /// The executable parses arguments: each command maps its flags to one call of PinGuardCommands or PinGuardService,
    /// naming option types of the core, the readers and the reports; the demo, the downloads, the probe and the state
    /// are wired in the libraries.
    func testTheExecutableOnlyParsesArguments() {
        let allowed: Set = ["ArgumentParser", "Foundation", "PinGuardCommands", "PinGuardService", "PinGuardCore", "PinGuardReaders",
                            "PinGuardReports", "PinGuardCrypto"]
        for (module, files) in PackageImportsTests.imports(under: "Sources/pinguard") where !allowed.contains(module) {
            XCTFail("Sources/pinguard (\(files.sorted().joined(separator: ", "))) imports \(module): its use belongs in a library target")
        }
    }

    /// A command returns what it would print and the status it would exit with, at the `now` and in the environment
    /// it is given: the executable prints, exits and reads the clock and the environment.
    func testTheCommandsPrintNothingExitNowhereAndReadNoClockOrEnvironment() throws {
        let dir = Self.root.appendingPathComponent("Sources/PinGuardCommands")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 10)
        let forbidden = ["print(", "exit(", "FileHandle.standard", "Date()", "Date.now", "ProcessInfo", "CommandLine"]
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in forbidden where line.contains(word) {
                    XCTFail("Sources/PinGuardCommands/\(file): a command returns its outcome (\(word)): \(line)")
                }
            }
        }
    }
}
