import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardProbe
import PinGuardService

/// `pinguard`: watches the TLS keys that shipped apps pin.
@main
struct PinGuardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pinguard",
        abstract: "Watch the TLS keys that shipped apps pin, and page before a rotation bricks an app.",
        version: PinGuardVersion.current,
        subcommands: [ServeCommand.self, ProbeCommand.self, PinCommand.self, CheckConfigCommand.self,
                      LintCommand.self, ImportCommand.self, PlanCommand.self])
}

/// Exit statuses shared by the commands (docs/reference.md, Commands and exit codes).
enum Exit {
    static let ok = ExitCode(0)
    static let rejected = ExitCode(1)
    static let configuration = ExitCode(2)
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Splits `HOST[:PORT]` (IPv6 as `[::1]:443`).
func splitHostPort(_ text: String, defaultPort: Int = 443) throws(ValidationError) -> (String, Int) {
    if text.hasPrefix("[") {
        guard let close = text.firstIndex(of: "]") else { throw ValidationError("\(text): missing ] after an IPv6 address") }
        let host = String(text[text.index(after: text.startIndex)..<close])
        let rest = text[text.index(after: close)...]
        if rest.isEmpty { return (host, defaultPort) }
        guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()), (1...65535).contains(p) else {
            throw ValidationError("\(text): bad port")
        }
        return (host, p)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 1 { return (text, defaultPort) }
    guard parts.count == 2, let p = Int(parts[1]), (1...65535).contains(p), !parts[0].isEmpty else {
        throw ValidationError("\(text): expected HOST[:PORT] (IPv6 as [::1]:443)")
    }
    return (String(parts[0]), p)
}

/// Parses a duration option.
func parseDuration(_ text: String, option: String, max: Double = 3_600) throws(ValidationError) -> Double {
    guard let v = PromDuration.parse(text), v > 0 else {
        throw ValidationError("\(option) \(EchoedInput.quoted(text)) is not a duration (use e.g. 500ms, 10s, 1m)")
    }
    guard v <= max else { throw ValidationError("\(option) \(EchoedInput.quoted(text)) is longer than the maximum of \(PromDuration.format(max))") }
    return v
}
