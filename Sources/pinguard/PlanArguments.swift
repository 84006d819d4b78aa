import ArgumentParser
import Foundation
import PinGuardCommands
import PinGuardService

extension PlanCommand.Format: ExpressibleByArgument {}

/// `pinguard plan`: the flags of `PlanCommand`.
struct PlanArguments: ParsableCommand {
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

    @Option(name: .customLong("client-stores"), help: "Client trust stores file replacing the bundled one (default with --config: its trust.client_stores).")
    var clientStores: String?

    @Option(help: "Evaluate as of this date (YYYY-MM-DD or RFC 3339), e.g. the deployment day.")
    var at: String?

    @Flag(help: "Print JSON (same as --format json).")
    var json = false

    @Option(help: "Output: table, json, github (workflow annotations) or sarif.")
    var format: PlanCommand.Format = .table

    func validate() throws {
        if chains.isEmpty && key == nil { throw ValidationError("give the candidate chain with --chain FILE, or its key with --key FILE") }
        if hosts.isEmpty { throw ValidationError("give at least one --host NAME the candidate will serve") }
        if policyFiles.policies.isEmpty == (config == nil) { throw ValidationError("give policy files (--policy) or --config, not both or neither") }
        if let at, FlagChoices.date(at) == nil { throw ValidationError("--at \"\(at)\" is not a date (use YYYY-MM-DD or RFC 3339)") }
    }

    func run() throws {
        var options = PlanCommand.Options(hosts: hosts, toolVersion: PinGuardVersion.current, now: Date())
        options.chains = chains
        options.key = key
        options.policies = policyFiles.policies
        options.inputFormat = policyFiles.inputFormat
        options.config = config
        options.caFile = caFile
        options.clientStores = clientStores
        options.at = at.flatMap(FlagChoices.date)
        options.format = json ? .json : format
        options.environment = ProcessInfo.processInfo.environment
        try PlanCommand.run(options).emit()
    }
}
