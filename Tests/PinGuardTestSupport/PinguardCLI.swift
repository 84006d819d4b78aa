import Foundation

/// The built `pinguard` executable, run as a user would run it.
public enum PinguardCLI {
    /// Path of the `pinguard` binary of the current build: `$PINGUARD_BINARY` if set, else the one next to
    /// the running test bundle (the products folder of whatever scratch path built it, `.build` or
    /// `.build-NAME`), else the most recently built `<root>/.build*/debug|release/pinguard`.
    public static let binary: String? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["PINGUARD_BINARY"], fm.isExecutableFile(atPath: env) {
            return env
        }
        var starts: [URL] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(URL(fileURLWithPath: exe)) }
        if let exe = Bundle.main.executableURL { starts.append(exe) }
        starts.append(Bundle.main.bundleURL)
        if let arg0 = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: arg0)) }
        for start in starts {
            var dir = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = dir.appendingPathComponent("pinguard").path
                if fm.isExecutableFile(atPath: candidate), !isDirectory(candidate) { return candidate }
                dir.deleteLastPathComponent()
            }
        }
        let root = Repository.root
        let scratch = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix(".build") }
        let candidates = scratch.flatMap { s in ["debug", "release"].map { root.appendingPathComponent("\(s)/\($0)/pinguard").path } }
            .filter { fm.isExecutableFile(atPath: $0) && !isDirectory($0) }
        return candidates.max { modified($0) < modified($1) }
    }()

    /// Runs `pinguard ARGS...` with a timeout (a safety net for a hang) and returns its status and output; throws
    /// when the binary is not built or cannot start.
    public static func run(_ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        guard let binary else {
            throw HarnessError("the pinguard binary was not found next to the tests or under .build*/; build it or set PINGUARD_BINARY")
        }
        return try CommandRunner.run(binary, arguments, timeout: timeout)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var d: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &d) && d.boolValue
    }

    private static func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }
}

/// Runs the built `pinguard` binary with `args` (see `PinguardCLI.run`).
public func runPinguard(args: [String], timeout: Double = 120) throws -> CommandResult {
    try PinguardCLI.run(args, timeout: timeout)
}
