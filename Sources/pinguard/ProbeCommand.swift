import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardReports
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardConfig
import PinGuardFetch
import PinGuardService

extension ResolveMode: ExpressibleByArgument {}

/// `pinguard probe`: one probe, evaluated against the given policy files.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Probe one TLS endpoint and show what each pinned client would decide.",
        discussion: """
        Exit status: 0 when every client accepts (without --policy: when the chain is trusted), \
        1 when any rejects or the probe fails, 2 on a configuration error. Days to pin breakage is \
        conservative for spki pins: a renewal that keeps the key keeps matching.
        """)

    @Argument(help: "HOST[:PORT] to probe; HOST is the server name (SNI, hostname check, patterns).")
    var target: String

    @Option(help: "Address to dial instead of resolving HOST (repeatable: each is probed).")
    var connect: [String] = []

    @Option(help: "Probe every address of HOST (all) or the first that answers (first).")
    var resolve: ResolveMode = .all

    @Option(name: .customLong("max-addresses"), help: "Probe at most this many addresses.")
    var maxAddresses = Target.defaultMaxAddresses

    @OptionGroup var policyFiles: PolicyFileOptions

    @Option(help: "Environment of the policies to apply.")
    var environment = "prod"

    @Option(name: .customLong("ca-file"), help: "CA bundle to trust instead of the system store (default with --config: its trust.ca_file).")
    var caFile: String?

    @Option(help: "A pinguard.yml whose trust and ct settings to probe with, as serve would.")
    var config: String?

    @Option(help: "Deadline for resolve + connect + handshake.")
    var timeout = "10s"

    @Option(name: .customLong("client-cert"), help: "mTLS: PEM client certificate, sent when the server asks for one.")
    var clientCert: String?

    @Option(name: .customLong("client-key"), help: "mTLS: PEM private key of --client-cert (default: the --client-cert file).")
    var clientKey: String?

    @Option(name: .customLong("client-pkcs12"), help: "mTLS: PKCS#12 client identity instead of --client-cert.")
    var clientPKCS12: String?

    @Option(name: .customLong("client-pkcs12-password-file"), help: "File holding the --client-pkcs12 password.")
    var clientPKCS12PasswordFile: String?

    @Option(name: .customLong("renewal-key"), help: ArgumentHelp("The next renewal's key, for the forecast: reuse or rotate (default: unknown, judged as rotate).", valueName: "reuse|rotate"))
    var renewalKey: RenewalKeyOption?

    @Option(name: .customLong("renewal-before"), help: "How long before notAfter the certificate is renewed (default: a third of its lifetime).")
    var renewalBefore: String?

    @Option(name: .customLong("issuer-catalog"), help: "A catalog of public issuer pools replacing the bundled one.")
    var issuerCatalog: String?

    @Option(name: .customLong("acme-directory"), help: ArgumentHelp("The ACME directory to ask for the leaf's renewal window (RFC 9773), or none (default: --config's renewal.acme_directory, else the issuer catalog's for the leaf's issuer).", valueName: "URL|none"))
    var acmeDirectory: String?

    @Flag(help: "Print the JSON object described in docs/reference.md (probe --json) instead of a table.")
    var json = false

    @Flag(inversion: .prefixedNo, help: "Check each certificate's CRL distribution points (fetched as --config's fetch settings allow; reported, never a verdict).")
    var crl = true

    func validate() throws {
        guard (1...Target.maxAddressesLimit).contains(maxAddresses) else {
            throw ValidationError("--max-addresses must be 1...\(Target.maxAddressesLimit)")
        }
        if let acmeDirectory, acmeDirectory != RenewalSettings.noDirectory, !acmeDirectory.hasPrefix("https://") {
            throw ValidationError("--acme-directory \(EchoedInput.quoted(acmeDirectory)) is not an https URL or none")
        }
    }

    func run() async throws {
        let (host, port) = try splitHostPort(target)
        let seconds = try parseDuration(timeout, option: "--timeout")
        let sets = try policyFiles.load()
        let loaded = try loadedConfig()
        let (prober, ct) = try proberAndCT(sets: sets, loaded: loaded)
        let identity: ClientIdentity?
        do { identity = try clientIdentity() } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        let probed = prober.probeTarget(ProbeRequest(host: host, port: port, connect: connect, timeout: seconds,
                                                     resolve: resolve, maxAddresses: maxAddresses, clientIdentity: identity))
        let probe = try await checked(probed, loaded: loaded)
        let target = Target(host: HostPattern.normalize(host), port: port, connect: connect, environment: environment,
                            policySets: sets.isEmpty ? nil : sets.map(\.name), resolve: resolve, maxAddresses: maxAddresses)
        var outlook = try declaredOutlook()
        var result = Judge(sets: sets, ct: ct, renewals: outlook).judge(probe, target: target, now: Date())
        if let window = try renewalWindow(of: result, catalog: outlook.catalog) {
            outlook.window = window
            Judge(sets: sets, ct: ct, renewals: outlook).forecast(&result)
        }
        let report = ProbeReport(target: target.name, result: result)
        print(json ? report.json() : report.text(), terminator: json ? "\n" : "")
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// The configuration `--config` names; nil without one.
    func loadedConfig() throws -> LoadedConfiguration? {
        do { return try config.map { path throws(ConfigError) in try ConfigurationLoader.load(path: path) } } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
    }

    /// `probe` with its certificates' revocation from CRLs when `--crl` (the default).
    func checked(_ probe: TargetProbe, loaded: LoadedConfiguration?) async throws -> TargetProbe {
        guard crl else { return probe }
        return try await revocationChecker(loaded).attach(to: probe, scheduled: false)
    }

    /// Checks CRLs through the guarded fetcher with `--config`'s `fetch` settings (else the defaults: public
    /// addresses only), keeping nothing.
    func revocationChecker(_ loaded: LoadedConfiguration?) throws -> RevocationChecker {
        let fetcher: GuardedFetcher
        do { fetcher = try GuardedFetcher(settings: loaded?.config.fetch ?? FetchSettings(), notices: RefusalNotices { printError("pinguard: \($0)") }) } catch {
            printError("pinguard: fetch.ca_file: \(error)")
            throw Exit.configuration
        }
        let clock = WallClock()
        return RevocationChecker(cache: CRLCache(fetcher: fetcher, store: MemoryDocumentStore(), clock: clock), clock: clock)
    }

    /// The prober with the trust store of `--ca-file` (else `--config`'s) and the CT settings it collects for `sets`.
    func proberAndCT(sets: [PolicySet], loaded: LoadedConfiguration?) throws -> (TLSProber, CTSettings) {
        do {
            let caFile = self.caFile ?? loaded?.config.caFile
            let ct = CommandCT.warned(try CommandCT.settings(loaded: loaded, sets: sets, caFile: caFile), sets: sets)
            return (try TLSProber(caFile: caFile, ctLogs: try CTSettingsLoader.keyring(ct, path: config ?? "the bundled CT log lists")), ct)
        } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
    }

    /// The forecast's outlook: the key `--renewal-key` names, the bundled catalog (or `--issuer-catalog`).
    func declaredOutlook() throws -> DeclaredRenewalOutlook {
        var config = ServiceConfig()
        config.issuerCatalog = issuerCatalog
        let catalog: IssuerCatalog
        do { catalog = try IssuerSourcesLoader.catalog(config, base: FileManager.default.currentDirectoryPath) } catch {
            printError("pinguard: \(error)")
            throw Exit.configuration
        }
        let before = try renewalBefore.map { try parseDuration($0, option: "--renewal-before", max: 3650 * 86_400) }
        let settings = RenewalSettings(before: before, key: renewalKey.map { $0 == .reuse ? .reuse : .rotate })
        return DeclaredRenewalOutlook(settings: settings, catalog: catalog)
    }

    /// The identity the `--client-*` options name, read as the service reads `client_cert` / `client_pkcs12`.
    func clientIdentity() throws -> ClientIdentity? {
        if let p12 = clientPKCS12 {
            guard clientCert == nil, clientKey == nil else { throw ValidationError("give --client-cert or --client-pkcs12, not both") }
            return try ClientIdentity(source: .pkcs12(file: p12, passwordFile: clientPKCS12PasswordFile))
        }
        guard clientPKCS12PasswordFile == nil else { throw ValidationError("--client-pkcs12-password-file needs --client-pkcs12") }
        guard let cert = clientCert else {
            if clientKey != nil { throw ValidationError("--client-key needs --client-cert") }
            return nil
        }
        return try ClientIdentity(source: .pem(certificate: cert, key: clientKey ?? cert))
    }
}

/// `--renewal-key`.
enum RenewalKeyOption: String, ExpressibleByArgument {
    case reuse, rotate
}
