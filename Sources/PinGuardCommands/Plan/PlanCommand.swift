import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardCrypto
import PinGuardReaders

/// `pinguard plan`: which shipped apps would reject a certificate before it is deployed.
public enum PlanCommand {
    /// The report's format.
    public enum Format: String, Sendable, CaseIterable {
        /// A table per host.
        case table
        /// The JSON object described in docs/reference.md.
        case json
        /// GitHub workflow annotations.
        case github
        /// A SARIF log.
        case sarif
    }

    /// What `plan` is asked to do.
    public struct Options: Sendable {
        /// Candidate chain files, leaf first, joined in order (with `key`: its CA certificates).
        public var chains: [String] = []
        /// A candidate key instead of a certificate: a PEM public key, private key or CSR.
        public var key: String?
        /// The host names the candidate will serve.
        public var hosts: [String]
        /// Policy files, as `probe --policy` reads them (used when `config` is nil).
        public var policies: [String] = []
        /// What every policy file is; nil: detected per file.
        public var inputFormat: LintInputFormat?
        /// A pinguard.yml whose policy sets, trust store, CT, issuer pools and state file to use.
        public var config: String?
        /// A CA bundle to trust instead of the system store (default with `config`: its trust.ca_file).
        public var caFile: String?
        /// A client trust stores file replacing the bundled one (default with `config`: its trust.client_stores).
        public var clientStores: String?
        /// The time the candidate is judged at; nil: `now`.
        public var at: Date?
        /// The report's format.
        public var format = Format.table
        /// The version a SARIF log names as its tool's.
        public var toolVersion: String
        /// The environment the state file is found in, as `serve` finds it (`$STATE_DIRECTORY`).
        public var environment: [String: String] = [:]
        /// The time log lists are judged stale at, and the candidate when `at` is nil.
        public var now: Date

        /// Options judging a candidate for `hosts` at `now`.
        public init(hosts: [String], toolVersion: String, now: Date) {
            self.hosts = hosts
            self.toolVersion = toolVersion
            self.now = now
        }
    }

    /// The verdicts per host, app, version and environment in `format` on stdout; status 0 when every client
    /// accepts, 1 when any rejects, 2 on bad input.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = PlanRun(options: options)
        return run.outcome()
    }
}

/// One `plan` run and the output it writes.
struct PlanRun: CommandRun {
    /// What `--config` (or the defaults) gives the judgement beside the policy sets.
    struct Setting {
        var sets: [PolicySet]
        var caFile: String?
        var outlook: DeclaredRenewalOutlook
        var ct: CTSettings
        var keyring: CTLogKeyring?
        var clientPaths: ClientPathJudge?
        /// `--config` as loaded, read once for the judgement and the state store.
        var loaded: LoadedConfiguration?
    }

    let options: PlanCommand.Options
    var out = CommandOutput()

    init(options: PlanCommand.Options) { self.options = options }

    var time: Date { options.at ?? options.now }

    mutating func perform() throws(CommandStop) -> Int32 {
        let setting = try loadSetting()
        let state = openState(setting.loaded)
        defer { state?.close() }
        // The stored caIssuers copies stand in for the downloads a probe would make.
        let issuers = StoredIssuers.attach(to: setting.clientPaths, documents: state)
        let candidates = try readCandidates(setting, documents: state, issuers: issuers)
        // The one judgement, with the forecast of the candidate's own next renewal once it is served.
        let judge = Judge(sets: setting.sets, ct: setting.ct, renewals: setting.outlook)
        let served = servedToday(state, loaded: setting.loaded)
        let (verdicts, forecasts) = RotationPlan.judged(candidates, by: judge, at: time, servedToday: served)
        let unpinned = RotationPlan.unpinnedHosts(candidates, verdicts: verdicts)
        switch options.format {
        case .table:
            out.write(PlanReport.table(verdicts, candidate: candidates.first, unpinned: unpinned,
                                       forecast: candidates.first.flatMap { forecasts[$0.host] }))
        case .json: out.write(PlanReport.json(verdicts, candidates: candidates, unpinned: unpinned, at: time, forecasts: forecasts))
        case .github: out.write(PlanReport.githubAnnotations(verdicts))
        case .sarif: out.write(PlanReport.sarif(verdicts, toolVersion: options.toolVersion))
        }
        return RotationPlan.exitStatus(verdicts)
    }

    /// The policy sets of `--policy` or `--config`, with `--config`'s trust store, issuer pools, renewal settings
    /// and CT (else the defaults).
    mutating func loadSetting() throws(CommandStop) -> Setting {
        var sets = options.config == nil ? try PolicyFiles.load(options.policies, format: options.inputFormat, out: &out) : []
        var caFile = options.caFile
        var outlook = DeclaredRenewalOutlook(settings: RenewalSettings(), pools: [:], catalog: IssuerSourcesLoader.bundled)
        do {
            var loaded: LoadedConfiguration?
            if let config = options.config {
                let l = try ConfigurationLoader.load(path: config)
                (loaded, sets, caFile) = (l, l.policySets, caFile ?? l.config.caFile)
                outlook = DeclaredRenewalOutlook(settings: l.config.renewal, pools: l.issuerPools, catalog: l.issuerCatalog)
            }
            let ct = CommandCT.warned(try CommandCT.settings(loaded: loaded, sets: sets, caFile: caFile), sets: sets, now: options.now, out: &out)
            let keyring = try CTSettingsLoader.keyring(ct, path: options.config ?? "the bundled CT log lists")
            let clientPaths = try CommandClientStores.judge(sets: sets, caFile: caFile,
                                                                     storesFile: options.clientStores ?? loaded?.config.clientStores,
                                                                     loaded: loaded, now: options.now, out: &out)
            outlook.issuerPaths = CommandClientStores.issuerPaths(judge: clientPaths, loaded: loaded)
            return Setting(sets: sets, caFile: caFile, outlook: outlook, ct: ct, keyring: keyring, clientPaths: clientPaths, loaded: loaded)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// The candidate per host: the chain verified for it at `time` (with the caIssuers copies in `documents`), or the
    /// key with `--chain` as its issuers.
    mutating func readCandidates(_ setting: Setting, documents: (any FetchedDocumentStore)?,
                                 issuers: FetchedIssuers?) throws(CommandStop) -> [ProbeFacts] {
        var files: [(bytes: [UInt8], name: String)] = []
        for path in options.chains {
            files.append((try InputFile.bytes(path, limit: InputFile.certificateLimit, out: &out), path))
        }
        do {
            if let key = options.key {
                let spki = try CandidateKey.spkiSHA256(try InputFile.bytes(key, limit: InputFile.certificateLimit, out: &out), name: key)
                var issuers: [ChainCertificate] = []
                for f in files { issuers += try CertificateReader.load(f.bytes, file: f.name) }
                out.error("pinguard: \(key): \(spki.kind) with SPKI \(spki.pin); trust assumed (no CA has signed it yet), lifetime assumed 397 days")
                return options.hosts.map { RotationPlan.keyCandidate(host: $0.lowercased(), spkiSHA256: spki.pin, issuers: issuers, at: time) }
            }
            let at = time
            return try options.hosts.map { host throws(ProbeError) in
                let verify = { () throws(ProbeError) -> ProbeFacts in
                    try CandidateChainVerifier.verify(files, host: host.lowercased(), caFile: setting.caFile, at: at,
                                                      ctLogs: setting.keyring, clientPaths: setting.clientPaths)
                }
                return try StoredIssuers.judged(try verify(), documents: documents, issuers: issuers, at: at, again: verify)
            }
        } catch let stop as CommandStop {
            throw stop
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }
}
