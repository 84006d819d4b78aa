import Foundation

/// Everything /metrics reports, gathered at scrape time from the latest results; `MetricsRenderer` writes it
/// as the families of `PinGuardMetrics`.
public struct MetricsSnapshot: Sendable {
    /// Latest result per configured target.
    public var results: [TargetResult] = []
    /// What the memory of served chains reports (renewals, key ages, whether its file is written).
    public var memory = ChainMemoryFacts()
    /// Latest judgement of each certificate file of `files:` (the target's name is the file's path).
    public var files: [TargetResult] = []
    /// Situations of the files of `files:` (a certificate file that expires with nothing newer), written with
    /// the targets' situations.
    public var fileSituations: [Situation] = []
    /// Lint findings of the loaded policies: (policy set, severity) → count.
    public var lintFindings: [LintCount] = []
    /// pinguard version.
    public var version: String = ""
    /// OpenSSL version string.
    public var openSSLVersion: String = ""
    /// Whether the last (re)load succeeded.
    public var lastReloadSuccessful: Bool = true
    /// When the configuration was last loaded successfully.
    public var lastReloadSuccess: Date?
    /// Configured targets.
    public var targets: Int = 0
    /// Probes run since start.
    public var probesTotal: UInt64 = 0
    /// Probes that retrieved no chain since start.
    public var probeFailuresTotal: UInt64 = 0
    /// Journal writes that failed since start.
    public var journalFailuresTotal: UInt64 = 0
    /// Duration of the last complete round.
    public var roundDuration: Double?
    /// When the last round finished.
    public var roundTimestamp: Date?
    /// The configured interval, seconds.
    public var roundInterval: Double?
    /// Seconds the last round started after it was due.
    public var roundLateness: Double?
    /// Which certificates get per-certificate series (`metrics.certificates`).
    public var certificates: CertificateSeries = .chain
    /// The process's resource use (nil: not reported, e.g. in `pinguard-bench`).
    public var process: ProcessStats?
    /// This instance's shard of the targets (nil: not sharded).
    public var shard: TargetShard?

    /// Signed policy bundles and their verification at the last (re)load.
    public var bundles: [PolicyBundleStatus] = []

    /// When each log list in force was published (`log_list_timestamp`).
    public var ctLogListTimestamps: [CTLogListName: Date] = [:]

    /// The CRL distribution points of the served chains, by URL.
    public var crls: [CRLStatus] = []

    /// Creates an empty snapshot.
    public init() {}
}
