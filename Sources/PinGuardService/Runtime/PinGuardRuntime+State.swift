import Foundation
import PinGuardConfig
import PinGuardCore

extension PinGuardRuntime {
    /// What the runtime keeps under its lock between rounds and reloads.
    struct State {
        var loaded: LoadedConfiguration
        var lint = PolicyLintTracker()
        var lintCounts: [LintCount] = []
        var roundDuration: Double?
        var roundTimestamp: Date?
        var roundLateness: Double?
        /// When the last full round started, and whether it is still open: cut short by a reload and not
        /// yet finished by a catch-up (`catchUp()`).
        var roundStart: Date?
        var roundOpen = false
        var ready = false
        /// The judged certificate files of `files:`.
        var files: [TargetResult] = []
        /// The files' own situations (a certificate file expiring with nothing newer), judged with them.
        var fileSituations: [Situation] = []
        /// What is remembered of each file (by path), so a staged chain's rejection is reported once, as staged.
        var fileMemories: [String: StagedChainEvents.Memory] = [:]
        var lastReloadOK = true
        /// The stale log lists warned about (origin and date): each once per process.
        var staleListsWarned: Set<String> = []
        var lastReloadSuccess: Date
        var lastStatus = Date.distantPast
        /// The CRL distribution points as the cache reported them after the last round.
        var crls: [CRLStatus] = []
    }
}
