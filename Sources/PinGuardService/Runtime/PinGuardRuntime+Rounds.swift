import Foundation
import PinGuardCore
import PinGuardReaders

extension PinGuardRuntime {
    /// Summary of one round.
    public struct RoundSummary: Sendable {
        /// The targets this round probed.
        let probed: Set<String>
        let store: ResultStore
        /// Seconds the round took.
        public var duration: Double

        /// Results of the targets this round probed, in target order, as the store holds them (judged by
        /// the configuration in force). Read from the store when asked: the scheduler never asks, and a
        /// copy of 100,000 results per round would be made for nothing.
        public var results: [TargetResult] { store.results.filter { probed.contains($0.target.name) } }
    }

    /// Probes every configured target once, at most `concurrency` at a time.
    ///
    /// - Parameters:
    ///   - spread: start probes evenly over half the interval (capped at 250 ms apart) instead of in one
    ///     burst; the first round and `--once` run unspread so results are ready quickly.
    ///   - due: when the schedule wanted this round to start; how late it starts is reported.
    public func runRound(spread: Bool, due: Date? = nil) async -> RoundSummary {
        let loaded = configuration
        judgeFiles()
        let start = clock.now
        state.withLockedValue { s in
            if let due { s.roundLateness = max(0, start.timeIntervalSince(due)) }
            s.roundStart = start
            s.roundOpen = true
        }
        return await probeRound(loaded.config, spread: spread, roundStart: start)
    }

    /// After a reload: probes at once the targets of the configuration in force that have no result
    /// (new targets, changed endpoints) or that the last full round has not reached (it was cut short),
    /// instead of a whole new round. Returns nil, probing nothing, when every target was probed since the
    /// last full round started. Its probes start at once (up to `concurrency`), like the first round's: a
    /// new target is reported within seconds. A catch-up that probes all it should finishes a round cut
    /// short: the round counts as complete then (readiness, round duration and timestamp).
    ///
    /// A reload that only edits policies (results are judged again without a probe) or adds a few
    /// targets to 100,000 so costs no round of 100,000 probes.
    public func catchUp() async -> RoundSummary? {
        let loaded = configuration
        let since = state.withLockedValue { $0.roundStart } ?? .distantPast
        let last = store.lastProbed()
        var config = loaded.config
        config.targets = config.targets.filter { t in last[t.name].map { $0 < since } ?? true }
        guard !config.targets.isEmpty else { return nil }
        return await probeRound(config, spread: false, roundStart: nil)
    }

    /// Runs one round over `config.targets`; `roundStart` is set for a full round, nil for a catch-up.
    func probeRound(_ config: ServiceConfig, spread: Bool, roundStart: Date?) async -> RoundSummary {
        let loaded = configuration
        let round = ProbeRound(
            config: config, judge: judge(loaded), generation: store.generation, executor: executor,
            revocation: revocation, issuers: issuerDownloads, store: store, memory: memory,
            clock: clock, emit: { [journal] events in for e in events { journal.send(e) } },
            progress: { done, total in self.reportProgress(done, of: total) })
        let outcome = await round.run(spread: spread)
        var committed: [JournalEntry] = []
        // How long the round's write to the state file took, for `systemctl status` (and the benchmark).
        let written = ContinuousClock().measure { committed = memory.commit(now: clock.now) }
        send(committed)
        await publishCRLStatuses()
        if !Task.isCancelled {
            // Only a round that probed every target counts as one (readiness, round metrics); a catch-up
            // that probed all it should completes the full round it follows, when that was cut short.
            if outcome.complete {
                let now = clock.now
                state.withLockedValue { s in
                    guard let start = roundStart ?? (s.roundOpen ? s.roundStart : nil) else { return }
                    s.roundDuration = roundStart == nil ? now.timeIntervalSince(start) : outcome.duration
                    s.roundTimestamp = now
                    s.roundOpen = false
                    s.ready = true
                }
            }
            relint()
            MallocTuning.trim()
            let c = outcome.counts
            let what = roundStart == nil ? "last catch-up after a reload" : "last round"
            notifier.status("\(what): \(outcome.probed.count) targets (\(c.addresses) addresses), \(c.rejects) rejected by a client, \(c.failed) probes failed, \(String(format: "%.2f", outcome.duration))s, state written in \(String(format: "%.3f", Self.seconds(written)))s; next in \(PromDuration.format(loaded.config.interval))")
        }
        return RoundSummary(probed: outcome.probed, store: store, duration: outcome.duration)
    }

    func reportProgress(_ done: Int, of total: Int) {
        let now = clock.now
        let due = state.withLockedValue { s -> Bool in
            guard now.timeIntervalSince(s.lastStatus) > 0.5 else { return false }
            s.lastStatus = now
            return true
        }
        if due { notifier.status("round in progress: \(done)/\(total) targets probed") }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
