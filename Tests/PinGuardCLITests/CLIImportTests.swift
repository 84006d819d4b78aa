import Foundation
import PinGuardTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `pinguard import` as a user runs it: the hostile-input reproducers of `Tests/Fixtures/repro/` end on their own,
/// small, with exit 0/1/2 and one clear line, and cost a bounded multiple of a smaller input of their format; `--define`/`--defines` reach the command. What import makes of a file is
/// tested in-process (PinGuardCommandsTests).
final class CLIImportTests: XCTestCase {
    static let reproDir = HostileInputs.folder

    /// Largest resident set of any child this process has waited for, in MiB.
    func childPeakMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// A TrustKit (or NSPinnedDomains) configuration of one pinned domain as a binary property list.
    func binaryPlist(nsPinnedDomains: Bool) throws -> Data {
        let pins = HostileShapes.pins
        let config: [String: Any] = nsPinnedDomains
            ? ["NSAppTransportSecurity": ["NSPinnedDomains": ["api.example.com": ["NSPinnedLeafIdentities": pins.map { ["SPKI-SHA256-BASE64": $0] }]]]]
            : ["TSKConfiguration": ["TSKSwizzleNetworkDelegates": true,
                                    "TSKPinnedDomains": ["api.example.com": ["TSKPublicKeyHashes": pins]]]]
        return try PropertyListSerialization.data(fromPropertyList: config, format: .binary, options: 0)
    }

    func testReproducersEndSmallWithOneClearLineAndBoundedWork() throws {
        let text = { (name: String) in try String(contentsOfFile: Self.reproDir.appendingPathComponent(name).path, encoding: .utf8) }
        let dropped = try text("xml-internal-entity-dropped.plist")
        // Each against the same format smaller: a day's max-age, a plain property list of the same pins, the entities
        // written out, two fewer doublings (bound 2: the work of a reproducer that was exponential barely grows), or a
        // quarter of the calls and nesting (bound 8: four times the input, where quadratic work took sixteen times).
        let cases: [(file: String, format: String, status: Int32, last: String, smaller: Data, bound: Double)] = [
            ("hpkp-maxage-intmax.txt", "hpkp", 0, "max-age=9223372036854775807 (106751991167300d15h30m7s)",
             Data(try text("hpkp-maxage-intmax.txt").replacingOccurrences(of: "9223372036854775807", with: "86400").utf8), 2),
            ("bplist_fan6.plist", "trustkit", 2, "binary property list: expands to more than 100000 values",
             try binaryPlist(nsPinnedDomains: false), 4),
            ("bplist_fan5_nspinneddomains.plist", "nspinneddomains", 2, "binary property list: expands to more than 100000 values",
             try binaryPlist(nsPinnedDomains: true), 4),
            ("okhttp-nested-add-8000.kt", "okhttp", 2, "nothing to import", Data(HostileShapes.okhttpNestedAdd(2_000).utf8), 8),
            ("okhttp-sequential-add-5000.kt", "okhttp", 0, "", Data(HostileShapes.okhttpSequentialAdd(1_250).utf8), 8),
            ("xml-internal-entity-dropped.plist", "trustkit", 2, ":2: DTD entity declarations are not accepted (line 2)",
             Data(dropped.split(separator: "\n").filter { !$0.hasPrefix("<!DOCTYPE") }.joined(separator: "\n")
                .replacingOccurrences(of: "&h1;", with: HostileShapes.pins[0]).utf8), 4),
            ("xml-entity-laughs-error89.plist", "trustkit", 2, ":3: DTD entity declarations are not accepted (line 3)",
             Data(HostileShapes.entityLaughs(levels: 2).utf8), 4),
            ("okhttp-const-doubling-26.kt", "okhttp", 2, "nothing to import", Data(HostileShapes.okhttpDoubling(24).utf8), 2),
            ("okhttp-const-doubling-28.kt", "okhttp", 2, "nothing to import", Data(HostileShapes.okhttpDoubling(26).utf8), 2),
            ("trustkit-swift-const-doubling-28.swift", "trustkit", 1, "1 usable pin(s): TrustKit requires at least 2",
             Data(HostileShapes.swiftDoubling(26).utf8), 2),
            ("trustkit-swift-nested-12000-segv.swift", "trustkit", 2, ":1: nested deeper than 128 levels; refused",
             Data(HostileShapes.swiftNested(3_000).utf8), 8),
            ("trustkit-objc-nested-20000-segv.m", "trustkit", 2, ":1: nested deeper than 128 levels; refused",
             Data(HostileShapes.objcNested(5_000).utf8), 8),
        ]
        let dir = try TemporaryDirectory.make("pinguard-import-smaller")
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        for c in cases {
            let path = Self.reproDir.appendingPathComponent(c.file).path
            guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("reproducer \(path) is not present") }
            // The timeout only stops a hang; how much work the import does is the ratio below.
            let r = try MeasuredCommand.run(binary, ["import", "--format", c.format, path])
            XCTAssertFalse(r.timedOut, "\(c.file) did not end")
            XCTAssertEqual(r.status, c.status, "\(c.file): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertTrue(lines.last.map { $0.contains(c.last) } ?? c.last.isEmpty, "\(c.file): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("XML parser error 89"), c.file)
            let smaller = dir.appendingPathComponent("smaller-" + c.file)
            try c.smaller.write(to: smaller)
            let small = try MeasuredCommand.run(binary, ["import", "--format", c.format, smaller.path])
            XCTAssertFalse(small.timedOut, "smaller \(c.file) did not end")
            XCTAssertLessThan(r.cpuSeconds, c.bound * small.cpuSeconds,
                              "\(c.file): \(r.cpuSeconds) s of CPU against \(small.cpuSeconds) s for the smaller input")
        }
        XCTAssertLessThan(childPeakMiB(), 200)
    }

    func testDefinesSupplyValuesTheSourceDoesNotDefine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-defines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pins = ["V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=", "kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow="]
        let source = dir.appendingPathComponent("Api.kt").path
        try """
        val pinner = CertificatePinner.Builder()
            .add(BuildConfig.API_HOST, BuildConfig.PIN_PRIMARY, "sha256/\(pins[1])")
            .build()
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let missing = try runPinguard(args: ["import", "--format", "okhttp", source])
        XCTAssertEqual(missing.status, 2, "\(missing)")
        XCTAssertTrue(missing.stderr.contains("BuildConfig.API_HOST unresolved"), missing.stderr)
        let file = dir.appendingPathComponent("buildconfig.env").path
        try "# from the Gradle build\nBuildConfig.API_HOST=api.example.com\n\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try runPinguard(args: ["import", "--format", "okhttp", source, "--defines", file,
                                       "--define", "BuildConfig.PIN_PRIMARY=sha256/\(pins[0])"])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.contains("- pattern: api.example.com"), r.stdout)
        XCTAssertTrue(r.stdout.contains(pins[0]) && r.stdout.contains(pins[1]), r.stdout)
        let bad = try runPinguard(args: ["import", "--format", "okhttp", source, "--define", "NOEQUALS"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "pinguard: --define: expected NAME=VALUE, got \"NOEQUALS\"\n")
    }
}
