import ArgumentParser
import Foundation
import PinGuardCommands
import PinGuardCore
import PinGuardService

extension ResolveMode: ExpressibleByArgument {}

/// `pinguard probe`: the flags of `ProbeCommand`.
struct ProbeArguments: AsyncParsableCommand {
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

    @Option(name: .customLong("client-stores"), help: "Client trust stores file replacing the bundled one (default with --config: its trust.client_stores).")
    var clientStores: String?

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
        if let refusal = FlagChoices.acmeDirectoryRefusal(acmeDirectory) { throw ValidationError(refusal) }
    }

    func run() async throws {
        let (host, port) = try splitHostPort(target)
        var options = ProbeCommand.Options(host: host, port: port, now: Date())
        options.timeout = try parseDuration(timeout, option: "--timeout")
        options.connect = connect
        options.resolve = resolve
        options.maxAddresses = maxAddresses
        options.policies = policyFiles.policies
        options.inputFormat = policyFiles.inputFormat
        options.environment = environment
        options.caFile = caFile
        options.clientStores = clientStores
        options.config = config
        options.clientIdentity = try clientIdentity()
        options.renewal = RenewalSettings(before: try renewalBefore.map { try parseDuration($0, option: "--renewal-before", max: 3650 * 86_400) },
                                          key: renewalKey.map { $0 == .reuse ? .reuse : .rotate })
        options.issuerCatalog = issuerCatalog
        options.acmeDirectory = acmeDirectory
        options.crl = crl
        options.lookups = GuardedProbeLookups()
        options.json = json
        try await ProbeCommand.run(options).emit()
    }

    /// The identity the `--client-*` options name.
    func clientIdentity() throws(ValidationError) -> ClientIdentitySource? {
        switch FlagChoices.clientIdentity(cert: clientCert, key: clientKey, pkcs12: clientPKCS12,
                                                 pkcs12PasswordFile: clientPKCS12PasswordFile) {
        case .success(let identity): return identity
        case .failure(let refusal): throw ValidationError(refusal.description)
        }
    }
}

/// `--renewal-key`.
enum RenewalKeyOption: String, ExpressibleByArgument {
    case reuse, rotate
}
