import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An error of the test harness itself (a server that would not start, a tool that is missing).
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the log of the process involved when there is one.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A long-running child process started by a test (nginx, `openssl s_server`).
///
/// Its output goes to a log file, stdin is `/dev/null`. It is stopped by PID — SIGTERM, then SIGKILL
/// after a grace period — on `stop()`, in `deinit`, and, for those still running, when the test process exits.
public final class ChildProcess: @unchecked Sendable {
    /// The child's process id.
    public let pid: Int32
    /// Where stdout and stderr go.
    public let logFile: URL
    private let process: Process
    private let lock = NSLock()
    private var stopped = false

    /// Starts `executable` with `arguments`; throws when it cannot be spawned.
    public init(executable: String, arguments: [String], logFile: URL) throws {
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = log
        p.standardError = log
        try p.run()
        process = p
        pid = p.processIdentifier
        self.logFile = logFile
        ChildProcessRegistry.shared.register(pid)
    }

    deinit { stop() }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Everything the child wrote so far.
    public var log: String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL; idempotent.
    public func stop(grace: Double = 2) {
        lock.lock()
        defer { lock.unlock() }
        if stopped { return }
        stopped = true
        if process.isRunning {
            kill(pid, SIGTERM)
            let end = Date().addingTimeInterval(grace)
            while process.isRunning && Date() < end { usleep(10_000) }
            if process.isRunning { kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
        ChildProcessRegistry.shared.unregister(pid)
    }
}

/// Every child still running, killed with SIGKILL when the test process exits, so that no server outlives
/// the tests even when a fixture is a `static let` that is never deinitialised.
final class ChildProcessRegistry: @unchecked Sendable {
    static let shared: ChildProcessRegistry = {
        let r = ChildProcessRegistry()
        atexit { ChildProcessRegistry.shared.killAll() }
        return r
    }()

    private let lock = NSLock()
    private var pids: Set<Int32> = []
    private var directories: [URL] = []

    func register(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
    func unregister(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }
    func removeAtExit(_ directory: URL) { lock.withLock { directories.append(directory) } }

    func killAll() {
        let (left, dirs) = lock.withLock { (pids, directories) }
        for pid in left { kill(pid, SIGKILL) }
        if ProcessInfo.processInfo.environment["PINGUARD_KEEP_TEST_FILES"] == nil {
            for d in dirs { try? FileManager.default.removeItem(at: d) }
        }
    }
}

/// Fresh temporary folders, removed when the test process exits (kept when `PINGUARD_KEEP_TEST_FILES` is set).
public enum TemporaryDirectory {
    /// Creates a new empty folder whose name starts with `prefix`.
    public static func make(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        ChildProcessRegistry.shared.removeAtExit(url)
        return url
    }
}
