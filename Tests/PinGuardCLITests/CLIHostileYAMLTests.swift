import Foundation
import PinGuardTestSupport
import XCTest

/// The hostile YAML reproducers of `Tests/Fixtures/repro/` through the real binary: each must end in < 2 s
/// and < 200 MB with exit status 2 and a one-line error that echoes no control characters.
final class CLIHostileYAMLTests: XCTestCase {
    func runBounded(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> MeasuredCommand {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let r = try MeasuredCommand.run(binary, arguments, timeout: 30)
        XCTAssertFalse(r.timedOut, file: file, line: line)
        XCTAssertLessThan(r.cpuSeconds, 2, "\(arguments) took \(r.cpuSeconds) s of CPU", file: file, line: line)
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

    func testMegabyteLinesAreNotEchoed() throws {
        // 4 MB rather than 10: a debug build's libyaml (-O0) needs about 0.15 s per MB, and the 2 s bound
        // must hold on a loaded machine. YAMLHostileInputTests covers 10 MB in process.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = String(repeating: "x", count: 4 << 20)
        for (text, expected) in [("listen: \"\(long)\"\n", ":1: a value of 4194304 bytes is longer than the limit of 65536 bytes"),
                                 ("listen: [\(long)\n", ":1: a value of 4194304 bytes is longer than the limit of 65536 bytes"),
                                 ("listen: \"\(long)\n", ":2: not valid YAML: while scanning a quoted scalar: found unexpected end of stream")] {
            let config = dir.appendingPathComponent("pinguard.yml").path
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let r = try runBounded(["check-config", config])
            XCTAssertEqual(r.stderr, "pinguard: \(config)\(expected)\n", String(r.stderr.prefix(300)))
        }
    }
}
