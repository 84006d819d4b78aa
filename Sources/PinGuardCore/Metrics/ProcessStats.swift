import Foundation

/// Resource use of the pinguard process, as Prometheus' process collector reports it (read by the service
/// from /proc at scrape time; all optional so a missing file leaves out one series, not the scrape).
public struct ProcessStats: Sendable, Equatable {
    /// User plus system CPU time, seconds.
    public var cpuSeconds: Double?
    /// Open file descriptors.
    public var openFDs: Int?
    /// The soft limit on open file descriptors.
    public var maxFDs: Int?
    /// Virtual memory size, bytes.
    public var virtualMemoryBytes: Double?
    /// Resident memory size, bytes.
    public var residentMemoryBytes: Double?
    /// Process start time, Unix seconds.
    public var startTime: Double?
    /// Operating system threads.
    public var threads: Int?

    /// Creates stats with every value unknown.
    public init() {}
}

extension ProcessStats {
    /// Fills CPU, threads, start time and memory from the text of `/proc/self/stat` (proc(5)), given the
    /// clock ticks per second, the page size and the boot time (`btime` of `/proc/stat`, Unix seconds).
    /// Fields that cannot be read stay nil.
    public mutating func read(stat: String, ticksPerSecond: Double, pageSize: Double, bootTime: Double?) {
        // The command name in parentheses may hold spaces and parentheses: fields start after the last ")".
        guard let close = stat.lastIndex(of: ")") else { return }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state) of proc(5).
        func field(_ n: Int) -> Double? { n - 3 < fields.count ? Double(fields[n - 3]) : nil }
        if let user = field(14), let system = field(15), ticksPerSecond > 0 { cpuSeconds = (user + system) / ticksPerSecond }
        threads = field(20).flatMap { Int(exactly: $0) }
        if let start = field(22), let bootTime, ticksPerSecond > 0 { startTime = bootTime + start / ticksPerSecond }
        virtualMemoryBytes = field(23)
        if let pages = field(24) { residentMemoryBytes = pages * pageSize }
    }

    /// The `btime` line of `/proc/stat`.
    public static func bootTime(procStat: String) -> Double? {
        for line in procStat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
