import Foundation
import PinGuardARI
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardCrypto
import PinGuardProbe
import PinGuardReaders

/// `pinguard probe`: one endpoint probed and judged as each pinned client would judge it.
public enum ProbeCommand {
    /// What `probe` is asked to do.
    public struct Options: Sendable {
        /// The server name: SNI, hostname check, patterns.
        public var host: String
        /// The port.
        public var port: Int
        /// Addresses to dial instead of resolving `host`, each probed.
        public var connect: [String] = []
        /// Every address of the host, or the first that answers.
        public var resolve = ResolveMode.all
        /// At most this many addresses are probed.
        public var maxAddresses = Target.defaultMaxAddresses
        /// Policy files, as `plan --policy` reads them.
        public var policies: [String] = []
        /// What every policy file is; nil: detected per file.
        public var inputFormat: LintInputFormat?
        /// The environment of the policies to apply.
        public var environment = "prod"
        /// A CA bundle to trust instead of the system store (default with `config`: its trust.ca_file).
        public var caFile: String?
        /// A client trust stores file replacing the bundled one (default with `config`: its trust.client_stores).
        public var clientStores: String?
        /// A pinguard.yml to probe and judge with as serve would: its trust, CT, fetch and renewal settings, issuer
        /// pools, its policy sets (unless `policies` are given) and its target of the same host and port.
        public var config: String?
        /// Seconds for resolve, connect and handshake.
        public var timeout: Double = 10
        /// The mTLS identity sent when the server asks for one.
        public var clientIdentity: ClientIdentitySource?
        /// The next renewal as declared for the forecast (`--renewal-key`, `--renewal-before`).
        public var renewal = RenewalSettings()
        /// A catalog of public issuer pools replacing the bundled one.
        public var issuerCatalog: String?
        /// The ACME directory asked for the leaf's renewal window, or `none`; nil: the configuration's
        /// `renewal.acme_directory`, else the issuer catalog's for the leaf's issuer.
        public var acmeDirectory: String?
        /// Whether each certificate's CRL distribution points are checked (reported, never a verdict).
        public var crl = true
        /// How CRLs and the renewal window are asked; nil: they are not.
        public var lookups: (any ProbeLookups)?
        /// Whether to print the JSON object instead of a table.
        public var json = false
        /// The time the chain is judged at.
        public var now: Date

        /// Options probing `host:port` at `now`.
        public init(host: String, port: Int, now: Date) {
            self.host = host
            self.port = port
            self.now = now
        }
    }

    /// What each client decides, as a table (or JSON) on stdout; status 0 when every client accepts (without
    /// policies: when the chain is trusted), 1 when any rejects or the probe fails, 2 on a configuration error.
    public static func run(_ options: Options) async -> CommandOutcome {
        var run = ProbeRun(options: options)
        return await run.outcome()
    }
}

/// One `probe` run and the output it writes.
struct ProbeRun: AsyncCommandRun {
    let options: ProbeCommand.Options
    var out = CommandOutput()

    init(options: ProbeCommand.Options) { self.options = options }

    mutating func perform() async throws(CommandStop) -> Int32 {
        let loaded = try loadedConfiguration()
        let sets = try policySets(loaded)
        let (prober, ct) = try proberAndCT(sets: sets, loaded: loaded)
        let target = configuredTarget(sets: sets, loaded: loaded)
        let dial = try request(target)
        let probe = try await checked(try await withDownloadedIssuers(prober.probeTarget(dial), prober: prober, request: dial,
                                                                      loaded: loaded), loaded: loaded)
        let result = try await judged(probe, target: target, sets: sets, ct: ct, loaded: loaded, clientPaths: prober.clientPaths)
        let report = ProbeReport(target: result.target.name, result: result)
        out.write(options.json ? report.json() + "\n" : report.text())
        return report.exitStatus
    }

    /// What to dial for `target`, with the client identity read as the service reads `client_cert` / `client_pkcs12`.
    mutating func request(_ target: Target) throws(CommandStop) -> ProbeRequest {
        let o = options
        let identity: ClientIdentity?
        do { identity = try o.clientIdentity.map { source throws(ProbeError) in try ClientIdentity(source: source) } } catch {
            throw out.fail("pinguard: \(error)")
        }
        return ProbeRequest(host: o.host, port: o.port, connect: target.connect, timeout: o.timeout, resolve: target.resolve,
                            maxAddresses: target.maxAddresses, clientIdentity: identity)
    }

    /// The one judgement of `probe` as a target of its own, forecast with the CA's renewal window when it gives one,
    /// and under other issuers on each client's paths above them (`clientPaths`).
    mutating func judged(_ probe: TargetProbe, target: Target, sets: [PolicySet], ct: CTSettings,
                         loaded: LoadedConfiguration?, clientPaths: ClientPathJudge?) async throws(CommandStop) -> TargetResult {
        var outlook = try declaredOutlook(loaded)
        outlook.issuerPaths = CommandClientStores.issuerPaths(judge: clientPaths, loaded: loaded,
                                                              catalog: options.issuerCatalog.map { ($0, outlook.catalog) })
        var result = Judge(sets: sets, ct: ct, renewals: outlook).judge(probe, target: target, now: options.now)
        if let window = try await renewalWindow(of: result, catalog: outlook.catalog, loaded: loaded) {
            outlook.window = window
            Judge(sets: sets, ct: ct, renewals: outlook).forecast(&result)
        }
        return result
    }

    /// The prober with the trust store of `caFile` (else the configuration's) and the CT settings it collects for `sets`.
    mutating func proberAndCT(sets: [PolicySet], loaded: LoadedConfiguration?) throws(CommandStop) -> (TLSProber, CTSettings) {
        do {
            let caFile = options.caFile ?? loaded?.config.caFile
            let ct = CommandCT.warned(try CommandCT.settings(loaded: loaded, sets: sets, caFile: caFile), sets: sets, now: options.now, out: &out)
            let keyring = try CTSettingsLoader.keyring(ct, path: options.config ?? "the bundled CT log lists")
            let clientPaths = try CommandClientStores.judge(sets: sets, caFile: caFile,
                                                                     storesFile: options.clientStores ?? loaded?.config.clientStores,
                                                                     loaded: loaded, now: options.now, out: &out)
            // With lookups, Chrome and Apple take the issuers they would download (`withDownloadedIssuers`).
            if options.lookups != nil { clientPaths?.fetchIssuers(from: FetchedIssuers()) }
            return (try TLSProber(caFile: caFile, ctLogs: keyring, clientPaths: clientPaths), ct)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// `probe` with its certificates' revocation from their CRLs when `crl` (the default), fetched with the
    /// configuration's `fetch` settings (else the defaults: public addresses only); refusals are said on stderr.
    mutating func checked(_ probe: TargetProbe, loaded: LoadedConfiguration?) async throws(CommandStop) -> TargetProbe {
        guard options.crl, let lookups = options.lookups else { return probe }
        let notices = NoticeLines()
        defer { for line in notices.lines { out.error("pinguard: \(line)") } }
        do { return try await lookups.revocation(of: probe, fetch: loaded?.config.fetch ?? FetchSettings(), notice: { notices.add($0) }) } catch {
            throw out.fail("pinguard: fetch.ca_file: \(error)")
        }
    }

    /// The CA's renewal window for the probed leaf, asked once through the lookups (the configuration's `fetch`
    /// settings, else the defaults): from `acmeDirectory`, else the configuration's `renewal.acme_directory`, else
    /// the catalog's directory for the leaf's issuer. Nil when none is known, or the CA knows no window; a failure
    /// is said on stderr and leaves the forecast as it was.
    mutating func renewalWindow(of result: TargetResult, catalog: IssuerCatalog,
                                loaded: LoadedConfiguration?) async throws(CommandStop) -> RenewalWindow? {
        guard let lookups = options.lookups else { return nil }
        var defaults = loaded?.config.renewal ?? RenewalSettings()
        if let directory = options.acmeDirectory { defaults.acmeDirectory = directory }
        guard let watched = WatchedCertificate.serving(result, defaults: defaults, catalog: catalog) else { return nil }
        let answer: RenewalInfoAnswer
        do { answer = try await lookups.renewalInfo(of: watched, fetch: loaded?.config.fetch ?? FetchSettings(), now: options.now) } catch {
            throw out.fail("pinguard: \(error)")
        }
        switch answer {
        case .window(let window, _): return window
        case .none: return nil
        case .failed(let reason, _):
            out.error("pinguard: renewal information of the leaf: \(reason)")
            return nil
        }
    }
}
