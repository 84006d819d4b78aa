import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardCrypto
import PinGuardFiles
import PinGuardReaders

/// `pinguard lint`: the offline audit of policy files and of the pin configurations apps ship.
public enum LintCommand {
    /// What `lint` is asked to do.
    public struct Options: Sendable {
        /// Policy files or native pin configurations to audit.
        public var files: [String]
        /// A pinguard.yml whose policy files are audited too.
        public var config: String?
        /// The report's format.
        public var format: LintReportFormat = .text
        /// What every file is; nil: detected per file.
        public var inputFormat: LintInputFormat?
        /// Whether a warning fails the run too.
        public var strict = false
        /// Days before a pin-set expiry that warn.
        public var expiringWithin = 30
        /// The public suffix list to check patterns against; nil: the bundled copy, or the system's when newer.
        public var publicSuffixList: String?
        /// Certificate chains whose raw public keys pins must not hash.
        public var chains: [String] = []
        /// The Android app's res/ directory, for `@raw/NAME` trust anchors; nil: the res/ the XML is in.
        public var res: String?
        /// The documentation URL a SARIF log names.
        public var docsURL = LintSARIFOptions.defaultDocumentationURI
        /// The version a SARIF log names as its tool's.
        public var toolVersion: String
        /// The time pin-set expiries are judged at.
        public var now: Date
        /// The environment `--config`'s state store is found in, as `serve` finds it (`$STATE_DIRECTORY`).
        public var environment: [String: String] = [:]

        /// Options auditing `files` at `now`, everything else as the command line's defaults.
        public init(files: [String], toolVersion: String, now: Date) {
            self.files = files
            self.toolVersion = toolVersion
            self.now = now
        }
    }

    /// Audits what `options` names: the report on stdout; the public suffix list used and (as text) a summary
    /// on stderr; status 0 clean, 1 when a finding is an error (strict: or a warning), 2 when a file cannot be
    /// read or parsed.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = LintRun(options: options)
        return run.outcome()
    }
}

/// One `lint` run and the output it writes.
struct LintRun: CommandRun {
    let options: LintCommand.Options
    var out = CommandOutput()
    /// `--config`, whose trust settings (`trust.ca_file`, `trust.client_stores`) the clients' paths of `--chain` are
    /// built from.
    var loaded: LoadedConfiguration?

    init(options: LintCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let suffixes = loadPublicSuffixes()
        var (sets, nativeSets, findings, catalog) = try readFiles(suffixes: suffixes.list)
        findings = PolicyLinter.lint(sets, now: options.now, publicSuffixes: suffixes.list, expiringWithinDays: options.expiringWithin,
                                     catalog: catalog) + findings
        sets += nativeSets
        var judge: ClientPathJudge??
        // The caIssuers copies `serve` kept stand in for the downloads Chrome and Apple make.
        let state = options.chains.isEmpty ? nil : loaded.flatMap { StoredIssuers.openState($0, environment: options.environment, keep: { _ in false }) }
        defer { state?.close() }
        var issuers: FetchedIssuers?
        for path in options.chains {
            findings += RawKeyPinCheck.findings(sets, chain: try readChain(path), chainFile: path)
            // Built once a chain was read: a broken chain file is said alone.
            if judge == nil {
                judge = .some(try clientPathJudge(sets))
                issuers = StoredIssuers.attach(to: judge ?? nil, documents: state)
            }
            if let made = judge, let made {
                findings += ClientPathLintCheck.findings(sets, chain: try clientPaths(path, judge: made, documents: state, issuers: issuers),
                                                         chainFile: path,
                                                         trustGiven: loaded?.config.caFile != nil || loaded?.config.clientStores != nil)
            }
        }
        out.write(LintReport.render(findings, format: options.format,
                                    sarif: LintSARIFOptions(toolVersion: options.toolVersion, documentationURI: options.docsURL,
                                                            publicSuffixList: suffixes.source)))
        out.error("pinguard: public suffix list: \(suffixes.source)")
        if options.format == .text { out.error(LintReport.summary(findings)) }
        return LintReport.exitCode(findings, strict: options.strict)
    }

    /// The policy sets of the policy files (and `--config`'s), and the native files' own sets and findings,
    /// kept apart because those findings are already in their line order.
    mutating func readFiles(suffixes: PublicSuffixList)
        throws(CommandStop) -> (sets: [PolicySet], nativeSets: [PolicySet], findings: [LintFinding], catalog: IssuerCatalog) {
        var sets: [PolicySet] = [], nativeSets: [PolicySet] = [], findings: [LintFinding] = []
        var catalog = IssuerSourcesLoader.bundled
        do {
            if let config = options.config {
                let loaded = try ConfigurationLoader.load(path: config)
                sets += loaded.policySets
                self.loaded = loaded
                catalog = loaded.issuerCatalog
            }
            let kinds = options.files.map { (file: $0, kind: options.inputFormat ?? detect($0)) }
            // Policy files are loaded together: their set names must differ.
            sets += try ConfigurationLoader.loadPolicies(kinds.filter { $0.kind == .policy }.map(\.file))
            for (file, kind) in kinds where kind != .policy {
                let bytes = try InputFile.bytes(file, limit: ImportLimits.maxInputBytes, what: "a native file lint reads", out: &out)
                let result = try NativeLinter.lint(bytes, file: file, format: kind, now: options.now, publicSuffixes: suffixes,
                                                   expiringWithinDays: options.expiringWithin,
                                                   resources: kind == .androidNSC
                                                       ? AndroidResources.resolve(xml: bytes, xmlPath: file, resDir: options.res) : [:],
                                                   catalog: catalog)
                findings += result.findings
                nativeSets += result.policySets
            }
        } catch let stop as CommandStop {
            throw stop
        } catch {
            throw out.fail("pinguard: \(error)")
        }
        return (sets, nativeSets, findings, catalog)
    }

    /// The list from `--public-suffix-list`, else the bundled or system copy; an unreadable `--public-suffix-list`
    /// falls back to those with a warning, as the check used to fall back to no list.
    mutating func loadPublicSuffixes() -> LoadedPublicSuffixList {
        if let path = options.publicSuffixList {
            if let loaded = PublicSuffixListLoader.load(path: path) { return loaded }
            out.error("pinguard: warning: \(path) cannot be read; using the default list")
        }
        let loaded = PublicSuffixListLoader.load()
        if loaded.isMissing { out.error("pinguard: warning: no public suffix list: \(loaded.source)") }
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

    /// The judge of the clients `sets` name, from `--config`'s trust settings or the bundled stores.
    mutating func clientPathJudge(_ sets: [PolicySet]) throws(CommandStop) -> ClientPathJudge? {
        do {
            return try CommandClientStores.judge(sets: sets, caFile: loaded?.config.caFile, storesFile: loaded?.config.clientStores,
                                                 loaded: loaded, now: options.now, out: &out)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// The chain of a `--chain` file with the paths each client builds from it at `now`, with the caIssuers copies
    /// of `documents` (`StoredIssuers`).
    mutating func clientPaths(_ path: String, judge: ClientPathJudge, documents: (any FetchedDocumentStore)?,
                              issuers: FetchedIssuers?) throws(CommandStop) -> ProbeFacts {
        let data = try InputFile.bytes(path, limit: InputFile.certificateLimit, out: &out)
        let now = options.now
        let judged = { () throws(ProbeError) -> ProbeFacts in try CandidateChainVerifier.clientPaths([(data, path)], judge: judge, at: now) }
        do { return try StoredIssuers.judged(try judged(), documents: documents, issuers: issuers, at: now, again: judged) } catch {
            throw out.fail("pinguard: \(error.message)")
        }
    }

    /// Every certificate of a `--chain` file, with its SPKI and raw-key hashes.
    mutating func readChain(_ path: String) throws(CommandStop) -> [ChainCertificate] {
        let data = try InputFile.bytes(path, limit: InputFile.certificateLimit, out: &out)
        do { return try CertificateReader.load(data, file: path) } catch {
            throw out.fail("pinguard: \(error.message)")
        }
    }
}
