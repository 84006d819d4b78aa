import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished command left behind.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// Exit status (128 + signal when it was killed).
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
    /// Whether the command was killed at the timeout.
    public var timedOut: Bool

    public var description: String {
        "status \(status)\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)"
    }
}

/// Runs short commands to completion with a timeout, capturing their output.
public enum CommandRunner {
    /// Runs `executable` with `arguments`; kills it (SIGKILL) after `timeout` seconds, a safety net for a hung
    /// child and no measure of speed. Output goes through temporary files, so a chatty command cannot block on a
    /// full pipe.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 120,
                           environment: [String: String]? = nil) throws -> CommandResult {
        let dir = FileManager.default.temporaryDirectory
        let token = UUID().uuidString
        let outURL = dir.appendingPathComponent("pinguard-cmd-\(token).out")
        let errURL = dir.appendingPathComponent("pinguard-cmd-\(token).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = out
        p.standardError = err
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        try? out.close()
        try? err.close()
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            done.wait()
        }
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return CommandResult(status: status,
                             stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
                             timedOut: timedOut)
    }

    /// Runs a `/bin/sh -c` command line (pipelines, redirections).
    public static func shell(_ commandLine: String, timeout: Double = 120) throws -> CommandResult {
        try run("/bin/sh", ["-c", commandLine], timeout: timeout)
    }

    /// Quotes `text` for a POSIX shell.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The first executable named `name` in `$PATH` or the usual system folders.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let dirs = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/bin"]
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
