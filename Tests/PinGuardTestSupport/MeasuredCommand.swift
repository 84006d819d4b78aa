import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command run to completion with the CPU time and peak memory it used, for hostile-input regressions: they
/// must end on their own (the timeout only stops a hung child), within a memory budget, and cost a bounded
/// multiple of what the same command costs on a smaller input (`cpuSeconds` of two runs), never a number of
/// seconds, which a loaded machine would stretch.
public struct MeasuredCommand: Sendable {
    /// Exit status (128 + signal when it was killed).
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
    /// CPU seconds it used (user and system, from `wait4`): compared with another run's, since wall time on a
    /// shared machine also counts other processes' work.
    public var cpuSeconds: Double
    /// Peak resident set size in bytes (`ru_maxrss` of this child alone, from `wait4`).
    public var maxRSSBytes: Int
    /// Whether it was killed at the timeout (a safety net for a hang, not a measure of speed).
    public var timedOut: Bool

    /// Seconds in `t`.
    static func cpu(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

    /// Runs `executable` with `arguments`, killing it after `timeout` seconds. `Process` reaps its
    /// child itself, so this spawns with `posix_spawn` and waits with `wait4` to get the child's usage.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 120) throws -> MeasuredCommand {
        let dir = FileManager.default.temporaryDirectory
        let token = UUID().uuidString
        let outPath = dir.appendingPathComponent("pinguard-measured-\(token).out").path
        let errPath = dir.appendingPathComponent("pinguard-measured-\(token).err").path
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard rc == 0 else { throw HarnessError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw HarnessError("wait4 failed: \(String(cString: strerror(errno)))") }
            if !timedOut && Date().timeIntervalSince(started) > timeout {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        let signaled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        let exit = signaled ? 128 + (status & 0x7f) : (status >> 8) & 0xff
        return MeasuredCommand(status: exit,
                               stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                               stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
                               cpuSeconds: cpu(usage.ru_utime) + cpu(usage.ru_stime), maxRSSBytes: Int(usage.ru_maxrss) * 1024, timedOut: timedOut)
    }

    /// The mean CPU seconds of `runs` runs of `executable` with `arguments`: what a run of the same binary on a
    /// larger or hostile input is compared with.
    public static func meanCPUSeconds(_ executable: String, _ arguments: [String], runs: Int = 3) throws -> Double {
        var total = 0.0
        for _ in 0..<runs {
            let r = try run(executable, arguments)
            guard !r.timedOut else { throw HarnessError("\(arguments) did not end: \(r.stderr)") }
            total += r.cpuSeconds
        }
        return total / Double(max(runs, 1))
    }
}
