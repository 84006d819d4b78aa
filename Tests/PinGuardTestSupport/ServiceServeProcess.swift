import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running `pinguard serve`, started as an operator would start it, optionally inside the private journald
/// of `scripts/with-journald.sh`.
///
/// The PID to signal is pinguard's own, read from its `serving /metrics on ..., pid N` line: with the wrapper,
/// the launched process is a shell in a private mount namespace and pinguard is its child. Both PIDs are
/// killed (SIGKILL) when the test process exits, so a failing test leaves nothing running.
public final class ServeProcess: @unchecked Sendable {
    /// Where journal events go.
    public enum JournalMode: Sendable {
        /// `scripts/with-journald.sh`: a private journald in a private mount namespace.
        case privateJournald
        /// `scripts/with-journald.sh --no-journal`: no journal socket at all.
        case noJournal
        /// No wrapper: the environment is passed as given (use with `journal: {enabled: false}`).
        case direct
    }

    /// pinguard's PID (from its serving line).
    public let pid: Int32
    /// The port /metrics is served on (from its serving line, so `listen: 127.0.0.1:0` works).
    public let port: Int
    /// Folder of the stdout and stderr logs.
    public let directory: URL
    /// How it was started.
    public let mode: JournalMode
    private let process: Process
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Path of `scripts/with-journald.sh`.
    public static var wrapper: String { Repository.root.appendingPathComponent("scripts/with-journald.sh").path }

    /// Whether the end-to-end requirements are met: root (for the wrapper), nsenter, nginx, the built binary.
    /// Returns the reason when they are not.
    public static var missingRequirement: String? {
        if getuid() != 0 { return "needs root (scripts/with-journald.sh uses a mount namespace)" }
        if CommandRunner.which("nsenter") == nil { return "nsenter is not installed" }
        if TLSServerFarm.nginxPath == nil { return "nginx is not installed" }
        if PinguardCLI.binary == nil { return "the pinguard binary is not built" }
        return nil
    }

    /// What a `.direct` serve needs, whose configuration dials `connect:` addresses on loopback and writes no
    /// journal: only the built binary, no root (the HTTP endpoint, its limits and TLS are what such tests check).
    public static var missingDirectRequirement: String? {
        PinguardCLI.binary == nil ? "the pinguard binary is not built" : nil
    }

    /// What a `.direct` serve with a private /etc/hosts or /etc/resolv.conf needs and this host lacks: the
    /// binary, and `unshare` with unprivileged user namespaces (the files are bind-mounted in a user and mount
    /// namespace of its own, no root needed); nil when nothing.
    public static var missingPrivateNamesRequirement: String? {
        if let missing = missingDirectRequirement { return missing }
        return userNamespaces ? nil : "needs unprivileged user namespaces (unshare --user --map-root-user --mount failed)"
    }

    private static let userNamespaces: Bool = {
        guard let unshare = CommandRunner.which("unshare") else { return false }
        return (try? CommandRunner.run(unshare, ["--user", "--map-root-user", "--mount", "true"]).status) == 0
    }()

    /// The executable and arguments that run `command` with `hostsFile` over /etc/hosts and `resolvConf` over
    /// /etc/resolv.conf, in a user and mount namespace of its own (`missingPrivateNamesRequirement`).
    public static func withPrivateNames(_ command: [String], hostsFile: String?, resolvConf: String? = nil) throws -> (String, [String]) {
        if let missing = missingPrivateNamesRequirement { throw HarnessError(missing) }
        let mounts = (hostsFile.map { [$0, "/etc/hosts"] } ?? []) + (resolvConf.map { [$0, "/etc/resolv.conf"] } ?? [])
        return (CommandRunner.which("unshare") ?? "/usr/bin/unshare",
                ["--user", "--map-root-user", "--mount", "--propagation", "private", "sh", "-c", bindScript, "sh"] + mounts + ["--"] + command)
    }

    /// Binds each `FILE TARGET` pair before `--`, then runs what follows it.
    private static let bindScript = #"while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 125; shift 2; done; shift; exec "$@""#

    /// Starts `pinguard serve ARGUMENTS...` and waits (bounded by `timeout`) for its serving line.
    /// `environment` entries are added to the test's environment, `unsetting` names are removed from it.
    ///
    /// `hostsFile` and `resolvConf` replace /etc/hosts and /etc/resolv.conf for pinguard: with a wrapper mode
    /// through `scripts/with-journald.sh --hosts`, `--resolv-conf`; with `.direct` in a user and mount
    /// namespace of pinguard's own (`missingPrivateNamesRequirement`).
    public init(arguments: [String], mode: JournalMode = .privateJournald, environment: [String: String] = [:],
                unsetting: [String] = [], timeout: Double = 60, hostsFile: String? = nil, resolvConf: String? = nil) throws {
        guard let binary = PinguardCLI.binary else { throw HarnessError("the pinguard binary is not built") }
        let dir = try TemporaryDirectory.make("pinguard-serve")
        let stdoutURL = dir.appendingPathComponent("stdout.log")
        let stderrURL = dir.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: stdoutURL)
        let err = try FileHandle(forWritingTo: stderrURL)
        defer { try? out.close(); try? err.close() }
        let p = Process()
        let hosts = (hostsFile.map { ["--hosts", $0] } ?? []) + (resolvConf.map { ["--resolv-conf", $0] } ?? [])
        switch mode {
        case .privateJournald:
            p.executableURL = URL(fileURLWithPath: Self.wrapper)
            p.arguments = hosts + [binary, "serve"] + arguments
        case .noJournal:
            p.executableURL = URL(fileURLWithPath: Self.wrapper)
            p.arguments = ["--no-journal"] + hosts + [binary, "serve"] + arguments
        case .direct:
            if hosts.isEmpty {
                p.executableURL = URL(fileURLWithPath: binary)
                p.arguments = ["serve"] + arguments
            } else {
                let (executable, wrapped) = try Self.withPrivateNames([binary, "serve"] + arguments, hostsFile: hostsFile, resolvConf: resolvConf)
                p.executableURL = URL(fileURLWithPath: executable)
                p.arguments = wrapped
            }
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        for k in unsetting { env[k] = nil }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = out
        p.standardError = err
        try p.run()
        ChildProcessRegistry.shared.register(p.processIdentifier)
        process = p
        directory = dir
        self.mode = mode

        let end = Date().addingTimeInterval(timeout)
        var found: (pid: Int32, port: Int)?
        while Date() < end {
            let log = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            if let f = Self.parseServingLine(log) { found = f; break }
            if !p.isRunning { break }
            usleep(20_000)
        }
        guard let found else {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            ChildProcessRegistry.shared.unregister(p.processIdentifier)
            let log = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw HarnessError("pinguard serve did not report serving within \(timeout)s (status \(p.isRunning ? "running" : String(p.terminationStatus))):\n\(log)")
        }
        pid = found.pid
        port = found.port
        if pid != p.processIdentifier { ChildProcessRegistry.shared.register(pid) }
    }

    deinit { _ = stop() }

    /// `pid` and port from `pinguard: serving /metrics on HOST:PORT, ..., pid N`.
    static func parseServingLine(_ log: String) -> (pid: Int32, port: Int)? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("serving /metrics on ") && $0.contains(", pid ") }),
              let pidText = line.components(separatedBy: ", pid ").last, let pid = Int32(pidText.trimmingCharacters(in: .whitespaces)),
              let onRange = line.range(of: "serving /metrics on ") else { return nil }
        let address = line[onRange.upperBound...].prefix { $0 != "," }
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else { return nil }
        return (pid, port)
    }

    /// Everything written to stderr so far.
    public var stderr: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
    }

    /// Everything written to stdout so far.
    public var stdout: String {
        (try? String(contentsOf: directory.appendingPathComponent("stdout.log"), encoding: .utf8)) ?? ""
    }

    /// Whether pinguard itself is still running (checked through /proc, so a reused PID is not mistaken for it).
    public var isRunning: Bool {
        guard process.isRunning else { return false }
        let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return String(decoding: cmdline, as: UTF8.self).contains("pinguard")
    }

    /// Sends `signal` to pinguard itself; false when it is no longer running.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        guard isRunning else { return false }
        return kill(pid, signal) == 0
    }

    /// Waits up to `timeout` seconds for the launched process to exit; its status (pinguard's: the wrapper
    /// returns the command's status), 128 + signal when killed, nil when still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < end { usleep(10_000) }
        if process.isRunning { return nil }
        return reap()
    }

    private func reap() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let s = exitStatus { return s }
        process.waitUntilExit()
        let s = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        exitStatus = s
        ChildProcessRegistry.shared.unregister(process.processIdentifier)
        ChildProcessRegistry.shared.unregister(pid)
        return s
    }

    /// SIGTERM to pinguard, then after `grace` seconds SIGKILL to pinguard and the wrapper; returns the status.
    @discardableResult
    public func stop(grace: Double = 5) -> Int32 {
        if let s = lock.withLock({ exitStatus }) { return s }
        signal(SIGTERM)
        if let s = waitForExit(timeout: grace) { return s }
        signal(SIGKILL)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        return reap()
    }

    // MARK: - The private journal

    /// Runs `journalctl ARGS` in pinguard's mount namespace (its private journald); only for `.privateJournald`.
    public func journalctl(_ arguments: [String], timeout: Double = 15) throws -> CommandResult {
        guard mode == .privateJournald else { throw HarnessError("no private journal in mode \(mode)") }
        guard isRunning else { throw HarnessError("pinguard has exited: its private journal is gone") }
        return try CommandRunner.run(CommandRunner.which("nsenter") ?? "/usr/bin/nsenter",
                                     ["--target", String(pid), "--mount", "journalctl"] + arguments, timeout: timeout)
    }

    /// pinguard's journal entries so far (`SYSLOG_IDENTIFIER=pinguard`), after `journalctl --sync`.
    public func journalEntries() throws -> [JournalRecord] {
        _ = try? journalctl(["--sync"])
        let r = try journalctl(["-o", "json", "--no-pager", "SYSLOG_IDENTIFIER=pinguard"])
        guard r.status == 0 || r.stdout.isEmpty == false else { throw HarnessError("journalctl failed: \(r)") }
        return JournalRecord.parse(r.stdout)
    }

    /// Polls the journal until `done` holds (returns those entries) or `timeout` passes (returns the last read);
    /// the timeout is a safety net for what never comes, no measure of speed.
    public func waitForJournal(timeout: Double = 60, until done: ([JournalRecord]) -> Bool) throws -> [JournalRecord] {
        let end = Date().addingTimeInterval(timeout)
        var entries = try journalEntries()
        while !done(entries) && Date() < end {
            usleep(100_000)
            entries = try journalEntries()
        }
        return entries
    }

    // MARK: - HTTP

    /// `GET /metrics`, parsed; throws on a non-200 reply or an exposition that does not parse.
    public func metrics() throws -> Exposition {
        try Exposition(metricsText())
    }

    /// `GET /metrics` as text.
    public func metricsText() throws -> String {
        let reply = try ServiceHTTP.get(port: port, "/metrics")
        guard reply.status == 200 else { throw HarnessError("GET /metrics: \(reply)") }
        return reply.body
    }

    /// Polls /metrics until `done` holds, up to `timeout` seconds (a safety net for what never comes, no measure
    /// of speed); returns the last exposition either way.
    public func waitForMetrics(timeout: Double = 60, until done: (Exposition) -> Bool) throws -> Exposition {
        let end = Date().addingTimeInterval(timeout)
        var m = try metrics()
        while !done(m) && Date() < end {
            usleep(100_000)
            m = try metrics()
        }
        return m
    }

    /// Waits until `pinguard_round_timestamp_seconds` has moved on `rounds` times from its current value
    /// (rounds that finish after this call); returns the last exposition.
    public func waitForRounds(_ rounds: Int, timeout: Double = 60) throws -> Exposition {
        var seen = Set<Double>()
        if let t = try metrics().value("pinguard_round_timestamp_seconds") { seen.insert(t) }
        let initial = seen.count
        return try waitForMetrics(timeout: timeout) { m in
            if let t = m.value("pinguard_round_timestamp_seconds") { seen.insert(t) }
            return seen.count - initial >= rounds
        }
    }
}
