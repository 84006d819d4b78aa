import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardReports
import PinGuardReaders
import PinGuardFiles
import PinGuardConfig
import PinGuardCrypto
import PinGuardProbe
import PinGuardService

extension LintReportFormat: ExpressibleByArgument {}
extension LintInputFormat: ExpressibleByArgument {}

/// `pinguard lint`: offline audit of policy files and of the pin configurations apps ship.
struct LintCommand: ParsableCommand {
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
        let suffixes = loadPublicSuffixes()
        let now = Date()
        var sets: [PolicySet] = []
        var catalog = IssuerSourcesLoader.bundled
        // Native files' policy findings are already in their line order, so their sets are kept apart.
        var nativeSets: [PolicySet] = []
        var findings: [LintFinding] = []
        do {
            if let config {
                let loaded = try ConfigurationLoader.load(path: config)
                sets += loaded.policySets
                catalog = loaded.issuerCatalog
            }
            let kinds = files.map { (file: $0, kind: inputFormat ?? detect($0)) }
            // Policy files are loaded together: their set names must differ.
            sets += try ConfigurationLoader.loadPolicies(kinds.filter { $0.kind == .policy }.map(\.file))
            for (file, kind) in kinds where kind != .policy {
                let bytes = try readNative(file)
                let result = try NativeLinter.lint(bytes, file: file, format: kind, now: now, publicSuffixes: suffixes.list,
                                                   expiringWithinDays: expiringWithin,
                                                   resources: kind == .androidNSC ? AndroidResources.resolve(xml: bytes, xmlPath: file, resDir: res) : [:],
                                                   catalog: catalog)
                findings += result.findings
                nativeSets += result.policySets
            }
        } catch let e as ImportError {
            printError("pinguard: \(e)")
            throw Exit.configuration
        } catch let e as ExitCode {
            throw e
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        findings = PolicyLinter.lint(sets, now: now, publicSuffixes: suffixes.list, expiringWithinDays: expiringWithin,
                                     catalog: catalog) + findings
        for path in chain {
            findings += RawKeyPinCheck.findings(sets + nativeSets, chain: try readChain(path), chainFile: path)
        }
        print(LintReport.render(findings, format: format,
                                sarif: LintSARIFOptions(toolVersion: PinGuardVersion.current, documentationURI: docsURL,
                                                        publicSuffixList: suffixes.source)),
              terminator: "")
        printError("pinguard: public suffix list: \(suffixes.source)")
        if format == .text { printError(LintReport.summary(findings)) }
        let code = LintReport.exitCode(findings, strict: strict)
        if code != 0 { throw ExitCode(code) }
    }

    /// The list from `--public-suffix-list`, else the bundled or system copy; an unreadable `--public-suffix-list`
    /// falls back to those with a warning, as the check used to fall back to no list.
    func loadPublicSuffixes() -> LoadedPublicSuffixList {
        if let publicSuffixList {
            if let loaded = PublicSuffixListLoader.load(path: publicSuffixList) { return loaded }
            printError("pinguard: warning: \(publicSuffixList) cannot be read; using the default list")
        }
        let loaded = PublicSuffixListLoader.load()
        if loaded.isMissing { printError("pinguard: warning: no public suffix list: \(loaded.source)") }
        return loaded
    }

    /// The format of `file` from its name and first 64 KiB (so a huge file is not read whole); a file that
    /// cannot be read (or is not a regular file) is a policy file, so the policy loader names the problem.
    func detect(_ file: String) -> LintInputFormat {
        let lower = file.lowercased()
        if lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") { return .policy }
        guard let head = try? RegularFile.head(file, count: 65_536) else { return .policy }
        return LintInputFormat.detect(file: file, contents: head)
    }

    /// A native file's bytes, refusing files over the importers' limit before reading them.
    func readNative(_ file: String) throws -> [UInt8] {
        try InputFile.bytes(file, limit: ImportLimits.maxInputBytes, what: "a native file lint reads")
    }

    /// Every certificate of a `--chain` file, with its SPKI and raw-key hashes.
    func readChain(_ path: String) throws -> [ChainCertificate] {
        let data = try InputFile.bytes(path, limit: InputFile.certificateLimit)
        do {
            return try CertificateReader.load(data, file: path)
        } catch {
            printError("pinguard: \(error.message)")
            throw Exit.configuration
        }
    }
}
