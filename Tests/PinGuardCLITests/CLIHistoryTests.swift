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
        let r = try MeasuredCommand.run(binary, ["history", "t", "--config", config, "--json"], timeout: 10)
        XCTAssertFalse(r.timedOut)
        XCTAssertLessThan(r.seconds, 5, "a blocked open, with room for a loaded machine")
        XCTAssertLessThan(r.cpuSeconds, 2)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "pinguard: state file \"\(fifo)\": not a regular file (a FIFO)\n")
    }

    func testAMissingNameIsAUsageError() throws {
        let r = try runPinguard(args: ["history"])
        XCTAssertEqual(r.status, 64, r.description)
    }
}
