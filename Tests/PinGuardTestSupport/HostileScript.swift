import Foundation

/// Runs one of the shell or Python reproducers of `Tests/Fixtures/repro/` against the built pinguard, as
/// its header says to run it, and returns what it printed (stdout and stderr together).
public enum HostileScript {
    /// Runs `name` (`.sh` through bash, `.py` through python3) with the pinguard binary and `arguments`;
    /// `privateNetwork` runs it in a mount and network namespace of its own (`unshare --mount --net`,
    /// root only); `environment` adds variables to this process's. Throws when the binary, the interpreter
    /// or the privilege is missing.
    public static func run(_ name: String, _ arguments: [String] = [], privateNetwork: Bool = false,
                           environment: [String: String] = [:], timeout: Double = 120) throws -> String {
        guard let binary = PinguardCLI.binary else { throw HarnessError("pinguard is not built") }
        let script = try HostileInputs.path(name)
        let interpreter = name.hasSuffix(".py") ? "python3" : "bash"
        guard let path = CommandRunner.which(interpreter) else { throw HarnessError("needs \(interpreter)") }
        var command = [path, script, binary] + arguments
        if privateNetwork {
            guard getuid() == 0, let unshare = CommandRunner.which("unshare") else {
                throw HarnessError("needs root for unshare --mount --net")
            }
            command = [unshare, "--mount", "--net"] + command
        }
        let r = try CommandRunner.run(command[0], Array(command.dropFirst()), timeout: timeout,
                                      environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        guard !r.timedOut else { throw HarnessError("\(name) ran past \(timeout) s:\n\(r.stdout)\(r.stderr)") }
        return r.stdout + r.stderr
    }

    /// The numbers of `key=N` in each line of `output` that has one, in order.
    public static func values(_ key: String, in output: String) -> [Int] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "\(key)=") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
