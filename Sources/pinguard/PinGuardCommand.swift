import ArgumentParser
import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardCrypto
import PinGuardService

/// `pinguard`: watches the TLS keys that shipped apps pin.
@main
struct PinGuardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pinguard",
        abstract: "Watch the TLS keys that shipped apps pin, and page before a rotation bricks an app.",
        version: PinGuardVersion.current,
        subcommands: [ServeArguments.self, ProbeArguments.self, PinArguments.self, CheckConfigArguments.self,
                      LintArguments.self, ImportArguments.self, PlanArguments.self, HistoryArguments.self])

    /// The most times one option may be repeated on the command line: the argument parser's time grows with
    /// the square of the repetitions (2,000 `--define` flags: 2 s), so more is refused before parsing, in one
    /// pass (`--defines FILE` takes up to 10,000 definitions).
    static let maxRepeatedOption = 1_000

    /// Refuses an option repeated more than `maxRepeatedOption` times, then parses and runs the command.
    static func main() async {
        KeyDecoding.install() // first thing: before any key is read or made (serve says what is in force)
        if let refusal = FlagChoices.repeatedOptionRefusal(CommandLine.arguments.dropFirst(), limit: maxRepeatedOption) {
            printError(refusal)
            Foundation.exit(Exit.configuration.rawValue)
        }
        await main(nil)
    }
}

/// Exit statuses shared by the commands (docs/reference.md, Commands and exit codes).
enum Exit {
    static let ok = ExitCode(0)
    static let rejected = ExitCode(1)
    static let configuration = ExitCode(2)
}

extension CommandOutcome {
    /// Writes the outcome as the commands always have (stdout through `print`, each stderr line at once, in the
    /// order the command wrote them) and ends the command with its status.
    func emit() throws {
        for piece in pieces {
            switch piece {
            case .stdout(let text): print(text, terminator: "")
            case .stderr(let line): printError(line)
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Splits `HOST[:PORT]` (IPv6 as `[::1]:443`).
func splitHostPort(_ text: String, defaultPort: Int = 443) throws(ValidationError) -> (String, Int) {
    switch HostPort.parse(text, defaultPort: defaultPort) {
    case .success(let hp): return (hp.host, hp.port)
    case .failure(let error): throw ValidationError(error.description)
    }
}

/// A duration option's seconds (`FlagChoices.duration`), or a usage error.
func parseDuration(_ text: String, option: String, max: Double = 3_600) throws(ValidationError) -> Double {
    switch FlagChoices.duration(text, option: option, max: max) {
    case .success(let seconds): return seconds
    case .failure(let refusal): throw ValidationError(refusal.description)
    }
}
