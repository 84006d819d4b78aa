import Foundation
import PinGuardTestSupport
import XCTest

/// The hostile source-file reproducers of `Tests/Fixtures/repro/` (chained constants, deep nesting, more rules than
/// an import produces) through the real binary, for `import` and `lint` alike: each ends on its own in < 200 MB with
/// a documented exit status, its last line of stderr saying why, and no control characters, and costs a bounded
/// multiple of the CPU time of the same shape smaller (two fewer doublings, a quarter of the nesting, fewer calls).
/// The bounds catch the runaway behaviour these files used to cause (an abort at 2 GB, a crash, minutes of work),
/// whatever the machine's speed; `scripts/bench-import.sh` measures them.
final class CLIHostileSourceTests: XCTestCase {
    /// What a reproducer must end with: `import` and `lint` exit statuses, and the text of the last line of stderr
    /// (for a file refused as a whole, the only line, for both commands); and the same shape smaller, whose CPU time
    /// times `bound` the reproducer's must stay under.
    struct Expectation {
        var file: String
        var format: String
        var importStatus: Int32
        var lintStatus: Int32
        var lastLine: String
        var refused: Bool
        var smaller: String
        var bound: Double
    }

    /// Runs pinguard: it must end on its own (the 120 s timeout only stops a hang), in < 200 MB, without control
    /// characters on stderr.
    func runBounded(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> MeasuredCommand {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let r = try MeasuredCommand.run(binary, arguments)
        XCTAssertFalse(r.timedOut, "\(arguments) did not end", file: file, line: line)
        XCTAssertLessThan(r.maxRSSBytes, 200 << 20, "\(arguments) peaked at \(r.maxRSSBytes >> 20) MB", file: file, line: line)
        XCTAssertFalse(r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
                       "control characters in: \(r.stderr.debugDescription)", file: file, line: line)
        return r
    }

    func check(_ e: Expectation, path: String) throws {
        let imported = try runBounded(["import", "--format", e.format, path])
        XCTAssertEqual(imported.status, e.importStatus, "\(e.file): \(imported.stderr)")
        let linted = try runBounded(["lint", path])
        XCTAssertEqual(linted.status, e.lintStatus, "\(e.file): \(linted.stderr)")
        let dir = try TemporaryDirectory.make("pinguard-smaller")
        let smaller = dir.appendingPathComponent("smaller-" + e.file).path
        try e.smaller.write(toFile: smaller, atomically: true, encoding: .utf8)
        for (run, arguments) in [(imported, ["import", "--format", e.format, smaller]), (linted, ["lint", smaller])] {
            _ = try runBounded(arguments)
            guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
            let small = try MeasuredCommand.meanCPUSeconds(binary, arguments)
            // The cheapest of up to three runs of the larger shape: one run on a busy machine can take a burst of
            // someone else's work.
            var cpu = run.cpuSeconds
            let larger = arguments.dropLast() + [path]
            for _ in 0..<2 where cpu >= e.bound * small { cpu = min(cpu, try runBounded(Array(larger)).cpuSeconds) }
            XCTAssertLessThan(cpu, e.bound * small, "\(e.file), \(arguments[0]): \(cpu) s of CPU against \(small) s for the smaller shape")
        }
        let importLines = imported.stderr.split(separator: "\n")
        XCTAssertTrue(importLines.last?.contains(e.lastLine) == true, "\(e.file): \(imported.stderr)")
        guard e.refused else { return }
        XCTAssertEqual(importLines.count, 1, imported.stderr)
        XCTAssertEqual(imported.stderr, linted.stderr, "lint refuses the file with the same line")
    }

    func testChainedConstantsAndDeepNestingEndBoundedForImportAndLint() throws {
        let deep = "nested deeper than 128 levels; refused"
        let nothing = "nothing to import: no usable okhttp pin configuration found"
        // Two more doublings cost about the same (four times as much when values were resolved in full); a quarter
        // of the nesting, more than an eighth (a sixteenth when reading it was quadratic).
        let cases = [
            Expectation(file: "okhttp-const-doubling-26.kt", format: "okhttp", importStatus: 2, lintStatus: 1, lastLine: nothing, refused: false,
                        smaller: HostileShapes.okhttpDoubling(24), bound: 2),
            Expectation(file: "okhttp-const-doubling-28.kt", format: "okhttp", importStatus: 2, lintStatus: 1, lastLine: nothing, refused: false,
                        smaller: HostileShapes.okhttpDoubling(26), bound: 2),
            Expectation(file: "trustkit-swift-const-doubling-28.swift", format: "trustkit", importStatus: 1, lintStatus: 1,
                        lastLine: "1 usable pin(s): TrustKit requires at least 2", refused: false, smaller: HostileShapes.swiftDoubling(26), bound: 2),
            Expectation(file: "trustkit-swift-nested-12000-segv.swift", format: "trustkit", importStatus: 2, lintStatus: 2,
                        lastLine: deep, refused: true, smaller: HostileShapes.swiftNested(3_000), bound: 8),
            Expectation(file: "trustkit-objc-nested-20000-segv.m", format: "trustkit", importStatus: 2, lintStatus: 2,
                        lastLine: deep, refused: true, smaller: HostileShapes.objcNested(5_000), bound: 8),
            Expectation(file: "okhttp-nested-add-8000.kt", format: "okhttp", importStatus: 2, lintStatus: 1, lastLine: nothing, refused: false,
                        smaller: HostileShapes.okhttpNestedAdd(2_000), bound: 8),
        ]
        for e in cases { try check(e, path: try HostileInputs.path(e.file)) }
        let doubling = try runBounded(["import", "--format", "okhttp", try HostileInputs.path("okhttp-const-doubling-26.kt")])
        XCTAssertTrue(doubling.stderr.contains(":15: warning: C14 is longer than 65536 bytes once resolved"), doubling.stderr)
    }

    func testAFileGivingMoreRulesThanAnImportProducesIsRefusedWithOneLine() throws {
        // What `Tests/Fixtures/repro/gen_okhttp_seq.py 20000 OUT` writes: 2.7 MB, within the 4 MiB input limit.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-seq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("seq-20000.kt").path
        try HostileShapes.okhttpSequentialAdd(20_000).write(toFile: path, atomically: true, encoding: .utf8)
        let line = "pinguard: \(path):10001: more than 10000 rules: an import produces at most 10000 rules and 25000 pins; refused (split the configuration)"
        // Against 12,500 calls, also past the limit: refused at the same rule, the rest read once.
        try check(Expectation(file: "seq-20000.kt", format: "okhttp", importStatus: 2, lintStatus: 2, lastLine: line, refused: true,
                              smaller: HostileShapes.okhttpSequentialAdd(12_500), bound: 3), path: path)
        let r = try runBounded(["import", "--format", "okhttp", path])
        XCTAssertFalse(r.stderr.contains("internal error"), r.stderr)
    }
}
