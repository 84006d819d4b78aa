import Foundation
import NIOConcurrencyHelpers
import PinGuardConfig
import PinGuardCore
import PinGuardProbe

/// The running service, composed of parts with one job each: the configuration in force, a
/// `ResultStore` of the latest results, a `ProbeExecutor` that probes, a `ConfigurationReloader` that
/// serializes reloads, lint tracking, and a `ServiceClock` for every reading of the time.
///
/// Shared by the scheduler, the HTTP endpoint and the signal handler.
public final class PinGuardRuntime: Sendable {
    private struct State {
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
        var lastReloadOK = true
        var lastReloadSuccess: Date
        var lastStatus = Date.distantPast
    }

    private let state: NIOLockedValueBox<State>
    /// Latest results by target.
    public let store: ResultStore
    /// `/metrics`, kept rendered and compressed per slice of the store's targets.
    private let exposition: ExpositionCache
    /// What probes the targets.
    public let executor: any ProbeExecutor
    /// Every time the runtime reads or waits for.
    public let clock: any ServiceClock
    /// Journal events go here.
    public let journal: JournalSink
    /// systemd notifications go here.
    public let notifier: SystemdNotifier
    private let reloader: ConfigurationReloader
    private let wake = RoundWake()
    /// `GET /probe` requests in progress.
    let probeRequests = ProbeRequestSlots()

    /// Creates a runtime from a loaded configuration.
    ///
    /// - Parameters:
    ///   - executor: probes targets; by default OpenSSL on a thread pool (throws when the trust store
    ///     cannot be loaded).
    ///   - loader: reads a configuration file on reload.
    public init(loaded: LoadedConfiguration, journal: JournalSink, notifier: SystemdNotifier = SystemdNotifier(),
                clock: any ServiceClock = WallClock(), executor: (any ProbeExecutor)? = nil,
                loader: @escaping @Sendable (String) throws(ConfigError) -> LoadedConfiguration
                    = { (path) throws(ConfigError) in try ConfigurationLoader.load(path: path) })
        throws(ProbeError) {
        if let executor {
            self.executor = executor
        } else {
            self.executor = try ThreadPoolProbeExecutor(config: loaded.config, clock: clock)
        }
        self.clock = clock
        self.journal = journal
        self.notifier = notifier
        store = ResultStore(config: loaded.config, sets: loaded.policySets)
        exposition = ExpositionCache(store: store)
        state = NIOLockedValueBox(State(loaded: loaded, lastReloadSuccess: clock.now))
        reloader = ConfigurationReloader(loader: loader)
        announceLoad(loaded)
    }

    /// Stops the probe threads.
    public func shutdown() async { await executor.shutdown() }

    /// The configuration in force.
    public var configuration: LoadedConfiguration { state.withLockedValue { $0.loaded } }

    /// Whether a complete round has finished.
    public var isReady: Bool { state.withLockedValue { $0.ready } }

    /// What /metrics renders.
    public func snapshot() -> MetricsSnapshot {
        var m = serviceSnapshot()
        m.results = store.results
        return m
    }

    /// `/metrics` from the slices the cache keeps, with everything but the per-target results read now.
    public func metricsBody(gzip: Bool) -> ResponseBody {
        exposition.body(service: serviceSnapshot(), gzip: gzip)
    }

    /// Renders the slices whose results changed since the last scrape or refresh.
    public func refreshMetrics() {
        exposition.refresh(certificates: state.withLockedValue { $0.loaded.config.certificateSeries })
    }

    /// The snapshot without the per-target results (which the exposition cache reads from the store).
    func serviceSnapshot() -> MetricsSnapshot {
        let counters = store.counters
        var m = MetricsSnapshot()
        m.version = PinGuardVersion.current
        m.openSSLVersion = TLSProber.openSSLVersion
        m.probesTotal = counters.probes
        m.probeFailuresTotal = counters.failures
        m.journalFailuresTotal = journal.failures
        state.withLockedValue { s in
            m.lintFindings = s.lintCounts
            m.bundles = s.loaded.bundles
            m.lastReloadSuccessful = s.lastReloadOK
            m.lastReloadSuccess = s.lastReloadSuccess
            m.targets = s.loaded.config.targets.count
            m.certificates = s.loaded.config.certificateSeries
            m.roundInterval = s.loaded.config.interval
            m.roundDuration = s.roundDuration
            m.roundTimestamp = s.roundTimestamp
            m.roundLateness = s.roundLateness
            m.files = s.files
        }
        m.process = ProcessStatsReader.read()
        return m
    }

    private func announceLoad(_ loaded: LoadedConfiguration) {
        journal.send(.configLoaded(path: loaded.path, targets: loaded.config.targets.count,
                                   policySets: loaded.policySets.map(\.name)))
        for b in loaded.bundles where b.state != .valid { journal.send(.policyBundleRejected(b)) }
        relint()
    }

    /// Recomputes lint findings of the policies in force; writes events for new findings only.
    private func relint() {
        let now = clock.now
        let events = state.withLockedValue { s -> [JournalEntry] in
            let (counts, events) = s.lint.update(s.loaded.policySets, now: now, windowDays: s.loaded.config.expiryWarningDays)
            s.lintCounts = counts
            return events
        }
        send(events)
    }

    private func send(_ events: [JournalEntry]) {
        for e in events { journal.send(e) }
    }

    /// Reloads the configuration file in force. A bad file leaves the running configuration untouched,
    /// writes `config_invalid` and returns the error; a good one takes effect at once and wakes the scheduler.
    public func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError> {
        notifier.reloading()
        defer { notifier.notify("READY=1") }
        let path = configuration.path
        let executor = executor
        let outcome = await reloader.reload(path: path, prepare: { (loaded) throws(ConfigError) in
            do { try executor.reconfigure(for: loaded.config) } catch {
                // A client identity error names its target in the message; anything else is the trust store.
                let identity = (error as? ProbeError)?.code == .clientIdentity
                throw ConfigError(file: path, line: identity ? nil : loaded.config.lines["trust.ca_file"],
                                  key: identity ? nil : "trust.ca_file", message: "\(error)")
            }
        }, apply: { loaded in self.apply(loaded) })
        if case .failure(let error) = outcome {
            state.withLockedValue { $0.lastReloadOK = false }
            journal.send(.configInvalid(path: path, error: error.description))
            StandardError.write("pinguard: reload (\(trigger)) rejected, previous configuration kept: \(error)")
        }
        return outcome
    }

    private func apply(_ reloaded: LoadedConfiguration) {
        let now = clock.now
        var loaded = reloaded
        state.withLockedValue { s in
            loaded.carryOverBundles(from: s.loaded.bundles)
            if loaded.config.listen != s.loaded.config.listen {
                StandardError.write("pinguard: listen address changes take effect on restart")
            }
            s.loaded = loaded
            s.lastReloadOK = true
            s.lastReloadSuccess = now
        }
        let events = store.apply(config: loaded.config, sets: loaded.policySets, now: now)
        journal.enabled = loaded.config.journalEnabled
        judgeFiles()
        wake.wake()
        announceLoad(loaded)
        send(events)
        // The store frees the replaced results and trims the heap on a background thread.
    }

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
    private func probeRound(_ config: ServiceConfig, spread: Bool, roundStart: Date?) async -> RoundSummary {
        let loaded = configuration
        let round = ProbeRound(
            config: config, sets: loaded.policySets, generation: store.generation, executor: executor,
            store: store, clock: clock, emit: { [journal] events in for e in events { journal.send(e) } },
            progress: { done, total in self.reportProgress(done, of: total) })
        let outcome = await round.run(spread: spread)
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
            notifier.status("\(what): \(outcome.probed.count) targets (\(c.addresses) addresses), \(c.rejects) rejected by a client, \(c.failed) probes failed, \(String(format: "%.2f", outcome.duration))s; next in \(PromDuration.format(loaded.config.interval))")
        }
        return RoundSummary(probed: outcome.probed, store: store, duration: outcome.duration)
    }

    /// Judges the certificate files of `files:` again (each round, and at once after a reload).
    private func judgeFiles() {
        let loaded = configuration
        guard !loaded.config.files.isEmpty || state.withLockedValue({ !$0.files.isEmpty }) else { return }
        let results = FileTargetJudge.judge(loaded.config, sets: loaded.policySets, now: clock.now)
        state.withLockedValue { $0.files = results }
    }

    private func reportProgress(_ done: Int, of total: Int) {
        let now = clock.now
        let due = state.withLockedValue { s -> Bool in
            guard now.timeIntervalSince(s.lastStatus) > 0.5 else { return false }
            s.lastStatus = now
            return true
        }
        if due { notifier.status("round in progress: \(done)/\(total) targets probed") }
    }

    /// Waits until `due` (one interval after the last round started) or until a reload asks for a
    /// catch-up (`catchUp()`); true when a reload woke it.
    @discardableResult
    public func waitForNextRound(until due: Date) async -> Bool {
        await wake.wait(until: due, clock: clock)
    }
}
