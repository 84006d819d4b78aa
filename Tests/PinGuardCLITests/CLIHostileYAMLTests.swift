import Foundation
import PinGuardTestSupport
import XCTest

/// The hostile YAML reproducers of `Tests/Fixtures/repro/` through the real binary: each must end on its own in
/// < 200 MB with exit status 2 and a one-line error that echoes no control characters, costing at most a few times
/// the CPU time of the same command on a small well-formed file (an alias bomb expanded costs thousands of times).
final class CLIHostileYAMLTests: XCTestCase {
    /// A small well-formed file: a policy for `lint`, a configuration for `check-config`.
    func wellFormed(for command: String) throws -> String {
        let dir = try TemporaryDirectory.make("pinguard-yaml-baseline")
        let path = dir.appendingPathComponent(command == "lint" ? "policy.yml" : "pinguard.yml").path
        try (command == "lint" ? "name: app\nenvironments:\n  prod:\n    policies: []\n" : "policies: []\ntargets: []\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs pinguard and checks how it ends; it must cost less than `bound` times the CPU time of `baseline` (by
    /// default the same command on a small well-formed file). The timeout only stops a hang.
    func runBounded(_ arguments: [String], baseline: [String]? = nil, below bound: Double = 4,
                    file: StaticString = #filePath, line: UInt = #line) throws -> MeasuredCommand {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let r = try MeasuredCommand.run(binary, arguments)
        XCTAssertFalse(r.timedOut, "\(arguments) did not end", file: file, line: line)
        let base = try MeasuredCommand.meanCPUSeconds(binary, try baseline ?? [arguments[0], wellFormed(for: arguments[0])])
        XCTAssertLessThan(r.cpuSeconds, bound * base, "\(arguments) took \(r.cpuSeconds) s of CPU against \(base) s", file: file, line: line)
        XCTAssertLessThan(r.maxRSSBytes, 200 << 20, "\(arguments) peaked at \(r.maxRSSBytes >> 20) MB", file: file, line: line)
        XCTAssertEqual(r.status, 2, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
        XCTAssertFalse(r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
                       "control characters in: \(r.stderr.debugDescription)", file: file, line: line)
        return r
    }

    func testAliasBombPolicyIsRejectedByLint() throws {
        let path = try HostileInputs.path("amp150.yml")
        let r = try runBounded(["lint", path])
        XCTAssertEqual(r.stderr, "pinguard: \(path):3: YAML anchors and aliases are not allowed (found anchor &E); write the value out\n")
    }

    func testAliasBombIsRejectedByCheckConfig() throws {
        let path = try HostileInputs.path("amp150.yml")
        let r = try runBounded(["check-config", path])
        XCTAssertTrue(r.stderr.contains("YAML anchors and aliases are not allowed"), r.stderr)
    }

    func testAliasBombConfigNamingTheBombIsRejected() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-amp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("pinguard.yml").path
        try "policies: [\(try HostileInputs.path("amp150.yml"))]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try runBounded(["check-config", config])
        XCTAssertTrue(r.stderr.contains("amp150.yml:3: YAML anchors and aliases are not allowed"), r.stderr)
    }

    func testEscapeSequencesAreNotEchoedByCheckConfig() throws {
        let path = try HostileInputs.path("esc-terminal-injection.yml")
        let r = try runBounded(["check-config", path])
        XCTAssertEqual(r.stderr, "pinguard: \(path):1: not valid YAML: control characters are not allowed (U+001B)\n")
    }

    func testDuplicateKeyErrorNamesKeyAndLine() throws {
        let path = try HostileInputs.path("dupkey-no-line.yml")
        let r = try runBounded(["lint", path])
        XCTAssertEqual(r.stderr, "pinguard: \(path):9: duplicate key \"fail_strategy\" (first on line 8)\n")
    }

    func testADeviceAsPolicyIsRefusedWithoutReadingIt() throws {
        let r = try runBounded(["lint", "/dev/zero"])
        XCTAssertEqual(r.stderr, "pinguard: /dev/zero: not a regular file (a character device)\n")
    }

    func testMegabyteLinesAreNotEchoedAndReadInLinearWork() throws {
        // 4 MB rather than 10 (YAMLHostileInputTests covers 10 MB in process), each against the same line of 1 MB:
        // four times the bytes, less than eight times the work (scanning the line again per byte would be sixteen).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shapes: [(String) -> String] = [{ "listen: \"\($0)\"\n" }, { "listen: [\($0)\n" }, { "listen: \"\($0)\n" }]
        let expectations = [":1: a value of 4194304 bytes is longer than the limit of 65536 bytes",
                            ":1: a value of 4194304 bytes is longer than the limit of 65536 bytes",
                            ":2: not valid YAML: while scanning a quoted scalar: found unexpected end of stream"]
        for (shape, expected) in zip(shapes, expectations) {
            let config = dir.appendingPathComponent("pinguard.yml").path
            let quarter = dir.appendingPathComponent("quarter.yml").path
            try shape(String(repeating: "x", count: 4 << 20)).write(toFile: config, atomically: true, encoding: .utf8)
            try shape(String(repeating: "x", count: 1 << 20)).write(toFile: quarter, atomically: true, encoding: .utf8)
            let r = try runBounded(["check-config", config], baseline: ["check-config", quarter], below: 8)
            XCTAssertEqual(r.stderr, "pinguard: \(config)\(expected)\n", String(r.stderr.prefix(300)))
        }
    }
}
