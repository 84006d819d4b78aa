import Foundation
import PinGuardTestSupport
import XCTest

/// A state file that cannot be used says so the same way everywhere — `serve`'s start-up line, its journal
/// event, `/metrics`, the status page, `check-config` — is never written, and never crashes or blocks a
/// command: the shell reproducers of `Tests/Fixtures/repro/` run end to end, with the checks in between.
final class CLIStateFileTests: XCTestCase {
    func testRandomBytesAsStateFileAreReportedUnwrittenEverywhereAndStayAsTheyWere() throws {
        let out = try HostileScript.run("state-foreign-reports-writable.sh", timeout: 300)
        XCTAssertTrue(out.contains("pinguard_state_writable 0"), out)
        XCTAssertFalse(out.contains("pinguard_state_writable 1"), out)
        XCTAssertTrue(out.contains("State file <span class=\"warn\">not written</span>"), out)
        XCTAssertTrue(out.contains("served chains are remembered in memory only: state file \"state.db\": not an SQLite database"), out)
        XCTAssertTrue(out.contains("[state_unavailable]"), out)
        XCTAssertFalse(out.contains("state_recovered"), out)
        let digests = out.split(separator: "\n").filter { $0.hasSuffix("  state.db") }
        XCTAssertEqual(digests.count, 2, out)
        XCTAssertEqual(Set(digests).count, 1, "the file kept every byte: \(out)")
    }

    func testANegativeSchemaVersionLeavesServeRunningInMemoryAndCheckConfigSaysSo() throws {
        let out = try HostileScript.run("state-user-version-negative.sh", timeout: 300)
        XCTAssertTrue(out.contains("serve --once rc=0"), out)
        XCTAssertTrue(out.contains("check-config rc=0"), out)
        XCTAssertTrue(out.contains("served chains are remembered in memory only: state file \"state.db\": schema version -1 is not a version pinguard writes"), out)
        XCTAssertTrue(out.contains("state_unavailable"), out)
        XCTAssertFalse(out.contains("crashed"), out)
    }

    func testAStoredLastSeenOfInt64MinIsRefusedAndTheRoundEndsCleanly() throws {
        let out = try HostileScript.run("state-last-seen-int64min.sh", timeout: 300)
        XCTAssertTrue(out.contains("first run rc=0"), out)
        XCTAssertTrue(out.contains("second run rc=0"), out)
        XCTAssertFalse(out.contains("crashed") || out.contains("TargetRecord"), out)
    }

    func testAFIFOAsStateFileBlocksNeitherServeNorHistory() throws {
        let out = try HostileScript.run("state-fifo-hang.sh", timeout: 300)
        XCTAssertTrue(out.contains("history rc=2"), out)
        XCTAssertTrue(out.contains("healthz: 200"), "serve listens, not blocked in open(2): \(out)")
        XCTAssertFalse(out.contains("still running"), "SIGTERM stops it: \(out)")
        XCTAssertTrue(out.contains("state file \"state.db\": not a regular file (a FIFO)"), out)
    }
}
