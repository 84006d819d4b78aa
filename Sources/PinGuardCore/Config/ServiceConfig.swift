import Foundation

/// The service configuration (`pinguard.yml`), after defaults and validation.
public struct ServiceConfig: Sendable, Equatable {
    /// HTTP listen address, e.g. `:9477`.
    public var listen: String = ":9477"
    /// Seconds between probe rounds.
    public var interval: Double = 300
    /// Seconds per probe (resolve + connect + handshake).
    public var timeout: Double = 10
    /// Probes in flight.
    public var concurrency: Int = 32
    /// Default environment of targets.
    public var environment: String = "prod"
    /// CA bundle instead of the system trust store (resolved against the config's folder).
    public var caFile: String?
    /// `trust.client_stores`: a client trust stores file (the bundled file's format) used instead of the
    /// bundled stores; resolved against the config's folder.
    public var clientStores: String?
    /// Log lists replacing the bundled ones (`ct.log_lists`), as written: a file (relative to the config's
    /// folder) or the publisher's `https://` URL (`CTLogListSource`).
    public var ctLogLists: [CTLogListName: String] = [:]
    /// PEM files of the keys that sign a fetched list (`ct.log_list_keys`), as written; Chrome's defaults to
    /// Google's published key, bundled.
    public var ctLogListKeys: [CTLogListName: String] = [:]
    /// Seconds between fetches of a log list given by URL (`ct.refresh`).
    public var ctRefresh: Double = 86_400
    /// CA roots treated as publicly trusted for Certificate Transparency (`ct.public_roots`), as written;
    /// nil: the roots of the system trust store when `trust.ca_file` is not set, none when it is.
    public var ctPublicRoots: String?
    /// What the loader made of `ct:` and the policy sets: the log lists and public roots in force and whether
    /// SCTs are collected (not parsed: filled in when the files are read).
    public var ct = CTSettings()
    /// Threshold in days for `expiry_warning` and `pin_breakage_imminent`.
    public var expiryWarningDays: Int = 30
    /// Policy files or globs, as written (relative to the config's folder).
    public var policies: [String] = ["policies/*.yml"]
    /// Whether to write journal events.
    public var journalEnabled: Bool = true
    /// Which addresses of a name are probed unless a target says otherwise (`resolve`).
    public var resolve: ResolveMode = .all
    /// Addresses probed per target unless a target says otherwise (`max_addresses`).
    public var maxAddresses: Int = Target.defaultMaxAddresses
    /// Which targets `GET /probe` may probe (`probe_allow`); nil: /probe is refused.
    public var probeAllow: ProbeAllowlist?
    /// How pinguard downloads what the authorities publish (`fetch`).
    public var fetch = FetchSettings()
    /// Target files in Prometheus file_sd format (`target_files`), globs as written (relative to the
    /// config's folder); their targets follow `targets`.
    public var targetFiles: [String] = []
    /// Certificate files judged like served chains (`files`).
    public var files: [FileTarget] = []
    /// Targets.
    public var targets: [Target] = []
    /// Which chain certificates get per-certificate series (`metrics.certificates`).
    public var certificateSeries: CertificateSeries = .chain
    /// The slice of the targets this instance probes (`shard: {index, total}`); nil = all of them.
    public var shard: TargetShard?
    /// What tells this instance apart from others of the same configuration (`instance`).
    public var instance = InstanceLabels()
    /// The state file of the memory of served chains (`state.path`), as written (relative to the config's
    /// folder); nil: `$STATE_DIRECTORY/state.db` under systemd, else memory only.
    public var statePath: String?
    /// The shared PostgreSQL database of the memory (`state.url`, `postgresql://...`), instead of a file.
    public var stateURL: String?
    /// How long a target gone from the configuration is remembered (`state.retention`), seconds.
    public var stateRetention: Double = 30 * 86_400
    /// How targets expect to be renewed unless they say otherwise (`renewal`).
    public var renewal = RenewalSettings()
    /// Private issuer pools (`issuer_pools`): pool name to PEM files or globs, as written.
    public var issuerPools: [String: [String]] = [:]
    /// A catalog of public issuer pools replacing the bundled one (`issuer_catalog`), as written.
    public var issuerCatalog: String?
    /// Signed remote pin bundles evaluated as policy sets (`policy_bundles`).
    public var policyBundles: [PolicyBundle] = []
    /// Source line of some keys, by key path (`trust.ca_file`, `policies[0]`, `targets[1].policy_sets[0]`),
    /// for errors found after parsing (a missing file, an unknown policy set).
    public var lines: [String: Int] = [:]

    /// A configuration with every default.
    public init() {}
}
