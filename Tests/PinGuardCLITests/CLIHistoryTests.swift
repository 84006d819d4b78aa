import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard history` through the built binary: the name, `--config` and `--json` reach the command, and its
/// statuses and stderr are the command's. What history reads is tested in-process (PinGuardCommandsTests).
final class CLIHistoryTests: XCTestCase {
    func testAFIFOAsStateFileIsRefusedAtOnceWithOneLine() throws {
        let dir = try TemporaryDirectory.make("pinguard-state-fifo")
        let fifo = dir.appendingPathComponent("state.db").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let config = dir.appendingPathComponent("c.yml").path
        try "policies: []\ntargets: []\nstate: {path: state.db}\n".write(toFile: config, atomically: true, encoding: .utf8)
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        // No writer ever comes: a blocked open would never end (the 120 s timeout only stops it).
        let r = try MeasuredCommand.run(binary, ["history", "t", "--config", config, "--json"])
        XCTAssertFalse(r.timedOut, "a blocked open")
        // The refusal costs about what the same command costs with no state file at all.
        let missing = dir.appendingPathComponent("missing.yml").path
        try "policies: []\ntargets: []\nstate: {path: missing.db}\n".write(toFile: missing, atomically: true, encoding: .utf8)
        let base = try MeasuredCommand.meanCPUSeconds(binary, ["history", "t", "--config", missing, "--json"])
        XCTAssertLessThan(r.cpuSeconds, 3 * base, "\(r.cpuSeconds) s of CPU against \(base) s without a state file")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "pinguard: state file \"\(fifo)\": not a regular file (a FIFO)\n")
    }

    func testAMissingNameIsAUsageError() throws {
        let r = try runPinguard(args: ["history"])
        XCTAssertEqual(r.status, 64, r.description)
    }
}
