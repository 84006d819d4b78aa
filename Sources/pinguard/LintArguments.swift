import ArgumentParser
import Foundation
import PinGuardCommands
import PinGuardReports
import PinGuardReaders
import PinGuardService

extension LintReportFormat: ExpressibleByArgument {}
extension LintInputFormat: ExpressibleByArgument {}

/// `pinguard lint`: the flags of `LintCommand`.
struct LintArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Audit pin policies and native pin configurations offline: missing backup pins, expiring pin sets, fail-open settings, CA pins, broad patterns, ATS and Android exceptions.",
        discussion: """
        FILE may be a policy file or what an app ships: an Info.plist (TrustKit, NSPinnedDomains, App Transport \
        Security), network_security_config.xml, Kotlin/Java with OkHttp CertificatePinner, TrustKit in JSON, Swift \
        or Objective-C, or HPKP headers; the format is detected per file unless --input-format is given. Findings \
        name the file and line they concern. \
        Exit status: 0 clean, 1 when a finding is an error (with --strict: also a warning), 2 when a file cannot be read or parsed.
        """)

    @Argument(help: "Policy files or native pin configurations to audit.")
    var files: [String] = []

    @Option(help: "Also audit every policy file a pinguard.yml loads.")
    var config: String?

    @Option(help: "Output: text, json, github (workflow annotations) or sarif.")
    var format: LintReportFormat = .text

    @Option(name: .customLong("input-format"),
            help: "What every FILE is: policy, plist, trustkit, android-nsc, okhttp, hpkp (default: detected per file).")
    var inputFormat: LintInputFormat?

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Option(name: .customLong("expiring-within"), help: "Days before a pin-set expiry that warn.")
    var expiringWithin = 30

    @Option(name: .customLong("public-suffix-list"),
            help: "The public suffix list to check patterns against (default: the bundled copy, or the system's when newer).")
    var publicSuffixList: String?

    @Option(help: ArgumentHelp("A certificate chain (PEM bundle or DER): report pins that hash a certificate's raw public key instead of its SPKI. Repeatable.",
                               valueName: "FILE"))
    var chain: [String] = []

    @Option(help: ArgumentHelp("The Android app's res/ directory, where @raw/NAME trust anchors are looked up (default: the res/ the XML is in).",
                               valueName: "DIR"))
    var res: String?

    @Option(name: .customLong("docs-url"), help: "Documentation URL the SARIF log names (informationUri; rule helpUri is it plus #lint-rules).")
    var docsURL = LintSARIFOptions.defaultDocumentationURI

    func validate() throws {
        if files.isEmpty && config == nil { throw ValidationError("give policy files or --config FILE") }
    }

    func run() throws {
        var options = LintCommand.Options(files: files, toolVersion: PinGuardVersion.current, now: Date())
        options.config = config
        options.format = format
        options.inputFormat = inputFormat
        options.strict = strict
        options.expiringWithin = expiringWithin
        options.publicSuffixList = publicSuffixList
        options.chains = chain
        options.res = res
        options.docsURL = docsURL
        options.environment = ProcessInfo.processInfo.environment
        try LintCommand.run(options).emit()
    }
}
