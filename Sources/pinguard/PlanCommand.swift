import ArgumentParser
import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardService

/// `pinguard plan`: which shipped apps would reject a certificate before it is deployed.
struct PlanCommand: ParsableCommand {
    /// Output formats of `plan`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, github, sarif
    }

    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Check a candidate chain against every shipped app before deploying it.",
        discussion: """
        The candidate chain (leaf first; PEM bundles or DER files) is verified for each --host against the \
        trust store (or --ca-file) at --at, and judged by every policy set that has a policy for the host, \
        per app, version and environment, exactly as a probe of a server serving it would be. \
        Exit status: 0 when every client accepts, 1 when any rejects, 2 on bad input. \
        See docs/reference.md, Commands and exit codes.
        """)

    @Option(name: .customLong("chain"), help: "Candidate chain file, leaf first (repeatable: the files are joined in order).")
    var chains: [String] = []

    @Option(help: "Candidate key instead of a certificate: PEM public key, private key or CSR; --chain then gives its CA certificates.")
    var key: String?

    @Option(name: .customLong("host"), help: "Host name the candidate will serve (repeatable).")
    var hosts: [String] = []

    @OptionGroup var policyFiles: PolicyFileOptions

    @Option(help: "A pinguard.yml whose policy sets to use (instead of --policy).")
    var config: String?

    @Option(name: .customLong("ca-file"), help: "CA bundle to trust instead of the system store (default with --config: its trust.ca_file).")
    var caFile: String?

    @Option(help: "Evaluate as of this date (YYYY-MM-DD or RFC 3339), e.g. the deployment day.")
    var at: String?

    @Flag(help: "Print JSON (same as --format json).")
    var json = false

    @Option(help: "Output: table, json, github (workflow annotations) or sarif.")
    var format: Format = .table

    func validate() throws {
        if chains.isEmpty && key == nil { throw ValidationError("give the candidate chain with --chain FILE, or its key with --key FILE") }
        if hosts.isEmpty { throw ValidationError("give at least one --host NAME the candidate will serve") }
        if policyFiles.policies.isEmpty == (config == nil) { throw ValidationError("give policy files (--policy) or --config, not both or neither") }
        if let at, Self.date(at) == nil { throw ValidationError("--at \"\(at)\" is not a date (use YYYY-MM-DD or RFC 3339)") }
    }

    /// `YYYY-MM-DD` is the start of that UTC day (pin-set expiry dates mean its end); else RFC 3339.
    static func date(_ text: String) -> Date? {
        if text.count == 10, let endOfDay = PinSetExpiry.parse(text) { return endOfDay.addingTimeInterval(-86_400) }
        return RFC3339.parse(text)
    }

    func run() throws {
        let time = at.flatMap(Self.date) ?? Date()
        var sets: [PolicySet] = config == nil ? try policyFiles.load() : []
        var caFile = self.caFile
        var pools: [String: [IssuerOption]] = [:]
        var catalog = IssuerSourcesLoader.bundled
        var renewal = RenewalSettings()
        let ct: CTSettings
        let keyring: CTLogKeyring?
        do {
            var loaded: LoadedConfiguration?
            if let config {
                loaded = try ConfigurationLoader.load(path: config)
                sets = loaded?.policySets ?? []
                caFile = caFile ?? loaded?.config.caFile
                if let l = loaded { (pools, catalog, renewal) = (l.issuerPools, l.issuerCatalog, l.config.renewal) }
            }
            ct = CommandCT.warned(try CommandCT.settings(loaded: loaded, sets: sets, caFile: caFile), sets: sets)
            keyring = try CTSettingsLoader.keyring(ct, path: config ?? "the bundled CT log lists")
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        var files: [(bytes: [UInt8], name: String)] = []
        for path in chains {
            files.append((try InputFile.bytes(path, limit: InputFile.certificateLimit), path))
        }
        var candidates: [ProbeFacts] = []
        do {
            if let key {
                let spki = try CandidateKey.spkiSHA256(try InputFile.bytes(key, limit: InputFile.certificateLimit), name: key)
                var issuers: [ChainCertificate] = []
                for f in files { issuers += try CertificateReader.load(f.bytes, file: f.name) }
                printError("pinguard: \(key): \(spki.kind) with SPKI \(spki.pin); trust assumed (no CA has signed it yet), lifetime assumed 397 days")
                candidates = hosts.map { RotationPlan.keyCandidate(host: $0.lowercased(), spkiSHA256: spki.pin, issuers: issuers, at: time) }
            } else {
                candidates = try hosts.map { host throws(ProbeError) in
                    try CandidateChainVerifier.verify(files, host: host.lowercased(), caFile: caFile, at: time, ctLogs: keyring)
                }
            }
        } catch let error as ProbeError {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        // The one judgement, with the forecast of the candidate's own next renewal once it is served.
        let judge = Judge(sets: sets, ct: ct, renewals: DeclaredRenewalOutlook(settings: renewal, pools: pools, catalog: catalog))
        let (verdicts, forecasts) = RotationPlan.judged(candidates, by: judge, at: time, servedToday: servedToday())
        let unpinned = RotationPlan.unpinnedHosts(candidates, verdicts: verdicts)
        switch json ? .json : format {
        case .table:
            print(PlanReport.table(verdicts, candidate: candidates.first, unpinned: unpinned,
                                   forecast: candidates.first.flatMap { forecasts[$0.host] }), terminator: "")
        case .json: print(PlanReport.json(verdicts, candidates: candidates, unpinned: unpinned, at: time, forecasts: forecasts), terminator: "")
        case .github: print(PlanReport.githubAnnotations(verdicts), terminator: "")
        case .sarif: print(PlanReport.sarif(verdicts, toolVersion: PinGuardVersion.current), terminator: "")
        }
        let status = RotationPlan.exitStatus(verdicts)
        if status != 0 { throw ExitCode(status) }
    }
}
