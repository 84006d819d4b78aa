import Foundation

/// Runs a test name server: a Python script that prints `ready` once its socket is bound.
enum NameServerProcess {
    /// Starts `script` with python3, logging to `log`, and waits (at most a minute, a safety net) until it says `ready`.
    static func start(_ script: String, log: URL, what: String) throws -> ChildProcess {
        let process = try ChildProcess(executable: CommandRunner.which("python3") ?? "/usr/bin/python3", arguments: ["-c", script],
                                       logFile: log)
        let end = Date().addingTimeInterval(60)
        while !process.log.contains("ready") {
            guard process.isRunning, Date() < end else { throw HarnessError("the \(what) did not start: \(process.log)") }
            usleep(20_000)
        }
        return process
    }
}
