import Foundation
import PinGuardConfig
import PinGuardCore
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
        /// A pinguard.yml whose trust and CT settings to probe with, as serve would.
        public var config: String?
        /// Seconds for resolve, connect and handshake.
        public var timeout: Double = 10
        /// The mTLS identity sent when the server asks for one.
        public var clientIdentity: ClientIdentitySource?
        /// The next renewal as declared for the forecast (`--renewal-key`, `--renewal-before`).
        public var renewal = RenewalSettings()
        /// A catalog of public issuer pools replacing the bundled one.
        public var issuerCatalog: String?
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
    public static func run(_ options: Options) -> CommandOutcome {
        var run = ProbeRun(options: options)
        return run.outcome()
    }
}

/// One `probe` run and the output it writes.
struct ProbeRun: CommandRun {
    let options: ProbeCommand.Options
    var out = CommandOutput()

    init(options: ProbeCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let o = options
        let sets = try PolicyFiles.load(o.policies, format: o.inputFormat, out: &out)
        let (prober, ct) = try proberAndCT(sets: sets)
        let identity: ClientIdentity?
        do { identity = try o.clientIdentity.map { source throws(ProbeError) in try ClientIdentity(source: source) } } catch {
            throw out.fail("pinguard: \(error)")
        }
        let probe = prober.probeTarget(ProbeRequest(host: o.host, port: o.port, connect: o.connect, timeout: o.timeout,
                                                    resolve: o.resolve, maxAddresses: o.maxAddresses, clientIdentity: identity))
        let target = Target(host: HostPattern.normalize(o.host), port: o.port, connect: o.connect, environment: o.environment,
                            policySets: sets.isEmpty ? nil : sets.map(\.name), resolve: o.resolve, maxAddresses: o.maxAddresses)
        let result = Judge(sets: sets, ct: ct, renewals: try declaredOutlook()).judge(probe, target: target, now: o.now)
        let report = ProbeReport(target: target.name, result: result)
        out.write(o.json ? report.json() + "\n" : report.text())
        return report.exitStatus
    }

    /// The prober with the trust store of `caFile` (else the configuration's) and the CT settings it collects for `sets`.
    mutating func proberAndCT(sets: [PolicySet]) throws(CommandStop) -> (TLSProber, CTSettings) {
        do {
            let loaded = try options.config.map { path throws(ConfigError) in try ConfigurationLoader.load(path: path) }
            let caFile = options.caFile ?? loaded?.config.caFile
            let ct = CommandCT.warned(try CommandCT.settings(loaded: loaded, sets: sets, caFile: caFile), sets: sets, now: options.now, out: &out)
            return (try TLSProber(caFile: caFile, ctLogs: try CTSettingsLoader.keyring(ct, path: options.config ?? "the bundled CT log lists")), ct)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }

    /// The forecast's outlook: the renewal as declared, the bundled catalog (or `issuerCatalog`, relative to the
    /// working directory).
    mutating func declaredOutlook() throws(CommandStop) -> DeclaredRenewalOutlook {
        var config = ServiceConfig()
        config.issuerCatalog = options.issuerCatalog
        do {
            let catalog = try IssuerSourcesLoader.catalog(config, base: FileManager.default.currentDirectoryPath)
            return DeclaredRenewalOutlook(settings: options.renewal, catalog: catalog)
        } catch {
            throw out.fail("pinguard: \(error)")
        }
    }
}
