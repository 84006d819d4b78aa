import Foundation
import PinGuardCore
import PinGuardReaders
#if canImport(Glibc)
import Glibc
#endif

/// Reads this process's resource use from /proc for `process_*` metrics at scrape time.
package enum ProcessStatsReader {
    /// The current stats; what cannot be read is left out.
    package static func read() -> ProcessStats {
        var stats = ProcessStats()
        let boot = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(ProcessStats.bootTime)
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8) {
            stats.read(stat: stat, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))),
                       pageSize: Double(sysconf(Int32(_SC_PAGESIZE))), bootTime: boot)
        }
        stats.openFDs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { max($0.count - 1, 0) }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            stats.maxFDs = limit.rlim_cur == rlim_t.max ? nil : Int(clamping: limit.rlim_cur)
        }
        return stats
    }
}
