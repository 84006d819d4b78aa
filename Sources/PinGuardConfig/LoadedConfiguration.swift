import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// A configuration with every policy file it names loaded and cross-checked.
public struct LoadedConfiguration: Sendable {
    /// The parsed service configuration (paths resolved against the config's folder).
    public var config: ServiceConfig
    /// Policy sets from every file the config names, in load order.
    public var policySets: [PolicySet]
    /// The config file's path.
    public var path: String
    /// What the target files looked like when they were read (`ConfigurationLoader.targetFilesFingerprint`).
    public var targetFilesFingerprint: String = ""
    /// The signed policy bundles and what was concluded about each (their sets are in `policySets`).
    public var bundles: [PolicyBundleStatus] = []
    /// The private issuer pools of `issuer_pools`, loaded.
    public var issuerPools: [String: [IssuerOption]] = [:]
    /// The catalog of public issuer pools in force.
    public var issuerCatalog: IssuerCatalog = .empty
    /// The keys of the CT logs in force, when a policy set checks CT (`config.ct.collect`).
    public var ctKeyring: CTLogKeyring?
    /// The keys that check the signed log lists fetched from a URL (`ct.log_list_keys`, else the bundled ones).
    public var ctLogListKeys: [CTLogListName: CTLogListKey] = [:]
    /// What the importers noticed in the native pin configurations of `policies:` (said by `check-config` and
    /// `serve` at load).
    public var importFindings: [ImportFinding] = []
    /// The path each client named by a policy set builds, from the bundled stores or `trust.ca_file`; nil
    /// when no set names a client.
    public var clientPaths: ClientPathJudge?
    /// Each client's paths above the issuers a renewal may come from, for the forecast; nil when no set names a
    /// client.
    public var issuerPaths: IssuerClientPaths?

    /// Creates a loaded configuration.
    public init(config: ServiceConfig, policySets: [PolicySet], path: String, targetFilesFingerprint: String = "",
                bundles: [PolicyBundleStatus] = []) {
        self.config = config
        self.policySets = policySets
        self.path = path
        self.targetFilesFingerprint = targetFilesFingerprint
        self.bundles = bundles
    }

    /// After a reload: a bundle now rejected falls back to the payload verified at an earlier load (the apps
    /// keep their last verified pins), and `policySets` follows.
    public mutating func carryOverBundles(from previous: [PolicyBundleStatus]) {
        let names = Set(bundles.map(\.bundle.name))
        bundles = bundles.map { $0.carryingOver(previous) }
        policySets = policySets.filter { !names.contains($0.name) } + bundles.compactMap(\.policySet)
    }
}
