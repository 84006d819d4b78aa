import XCTest
@testable import PinGuardCore

/// `/proc/self/stat` read as the Prometheus process collector reads it.
final class ProcessStatsTests: XCTestCase {
    /// A command name with spaces and parentheses does not shift the fields.
    func testFieldsAfterAnAwkwardCommandName() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
        // priority nice num_threads itrealvalue starttime vsize rss ...
        let stat = "4242 (pin guard) (x)) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 125 0 0 20 0 37 0 5000 1234567168 21400 18446744073709551615"
        var s = ProcessStats()
        s.read(stat: stat, ticksPerSecond: 100, pageSize: 4096, bootTime: 1_700_000_000)
        XCTAssertEqual(s.cpuSeconds, 3.75)
        XCTAssertEqual(s.threads, 37)
        XCTAssertEqual(s.startTime, 1_700_000_050)
        XCTAssertEqual(s.virtualMemoryBytes, 1_234_567_168)
        XCTAssertEqual(s.residentMemoryBytes, 21_400 * 4096)
    }

    func testUnreadableTextLeavesEveryValueUnknown() {
        var s = ProcessStats()
        s.read(stat: "garbage", ticksPerSecond: 100, pageSize: 4096, bootTime: nil)
        XCTAssertEqual(s, ProcessStats())
        s.read(stat: "1 (x) S 1", ticksPerSecond: 100, pageSize: 4096, bootTime: nil)
        XCTAssertNil(s.cpuSeconds)
        XCTAssertNil(s.residentMemoryBytes)
    }

    func testBootTimeComesFromTheBtimeLine() {
        XCTAssertEqual(ProcessStats.bootTime(procStat: "cpu  1 2 3\nbtime 1763900000\nprocesses 5\n"), 1_763_900_000)
        XCTAssertNil(ProcessStats.bootTime(procStat: "cpu  1 2 3\n"))
    }
}
