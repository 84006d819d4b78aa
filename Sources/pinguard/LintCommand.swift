import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardConfig

/// Debian's copy of the public suffix list (package `publicsuffix`).
let defaultPublicSuffixList = "/usr/share/publicsuffix/public_suffix_list.dat"

/// Loads the public suffix list, or an empty one with a warning when the file is missing.
func loadPublicSuffixes(_ path: String, quiet: Bool = false) -> PublicSuffixList {
    guard let data = FileManager.default.contents(atPath: path) else {
        if !quiet { printError("pinguard: warning: \(path) not found (apt-get install publicsuffix); public-suffix checks are off") }
        return PublicSuffixList(text: "")
    }
    return PublicSuffixList(text: String(decoding: data, as: UTF8.self))
}

extension LintReportFormat: ExpressibleByArgument {}

/// `pinguard lint`: offline audit of policy files.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Audit pin policies offline: missing backup pins, expiring pin sets, fail-open production settings, CA pins, broad patterns.",
        discussion: "Exit status: 0 clean, 1 when a finding is an error (with --strict: also a warning), 2 when a file cannot be read or parsed.")

    @Argument(help: "Policy files to audit.")
    var files: [String] = []

    @Option(help: "Also audit every policy file a pinguard.yml loads.")
    var config: String?

    @Option(help: "Output: text, json, github (workflow annotations) or sarif.")
    var format: LintReportFormat = .text

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Option(name: .customLong("expiring-within"), help: "Days before a pin-set expiry that warn.")
    var expiringWithin = 30

    @Option(name: .customLong("public-suffix-list"), help: "The public suffix list to check patterns against.")
    var publicSuffixList = defaultPublicSuffixList

    func validate() throws {
        if files.isEmpty && config == nil { throw ValidationError("give policy files or --config FILE") }
    }

    func run() throws {
        var sets: [PolicySet] = []
        do {
            if let config { sets += try ConfigurationLoader.load(path: config).policySets }
            sets += try ConfigurationLoader.loadPolicies(files)
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        let findings = PolicyLinter.lint(sets, now: Date(), publicSuffixes: loadPublicSuffixes(publicSuffixList),
                                         expiringWithinDays: expiringWithin)
        print(LintReport.render(findings, format: format), terminator: "")
        if format == .text { printError(LintReport.summary(findings)) }
        let code = LintReport.exitCode(findings, strict: strict)
        if code != 0 { throw ExitCode(code) }
    }
}
