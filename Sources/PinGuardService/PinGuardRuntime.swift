import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import PinGuardCore
import PinGuardProbe

/// The running service's state and behaviour: configuration, latest results, rounds, reloads.
///
/// Shared by the scheduler, the HTTP endpoint and the signal handler; every mutable part sits behind one lock.
public final class PinGuardRuntime: Sendable {
    struct State {
        var loaded: LoadedConfiguration
        var prober: TLSProber
        var results: [String: TargetResult] = [:]
        var detector: EventDetector
        var lint: PolicyLintTracker
        var lintCounts: [LintCount] = []
        var pool: NIOThreadPool
        var poolSize: Int
        var probesTotal: UInt64 = 0
        var probeFailuresTotal: UInt64 = 0
        var roundDuration: Double?
        var roundTimestamp: Date?
        var ready = false
        var lastReloadOK = true
        var lastReloadSuccess: Date
        var wakeRequested = false
        var generation = 0
        /// CA certificates seen, by hash: thousands of targets share a few intermediates and roots, and
        /// reusing one copy of their facts keeps a 10,000-target service small.
        var caCertificates: [String: ChainCertificate] = [:]

        mutating func intern(_ chain: [ChainCertificate]) -> [ChainCertificate] {
            chain.map { c in
                guard c.isCA else { return c }
                guard var shared = caCertificates[c.certSHA256] else {
                    if caCertificates.count > 10_000 { caCertificates.removeAll() }
                    caCertificates[c.certSHA256] = c
                    return c
                }
                shared.depth = c.depth
                shared.source = c.source
                return shared
            }
        }

        /// Whether `target` of the configuration in force probes the same endpoint as `result` did.
        func sameEndpoint(_ result: TargetResult) -> Target? {
            guard let t = loaded.config.targets.first(where: { $0.name == result.target.name }),
                  t.host == result.target.host, t.port == result.target.port, t.connect == result.target.connect else {
                return nil
            }
            return t
        }
    }

    private let state: NIOLockedValueBox<State>
    /// One reload at a time: a slow load must not be applied after a newer one.
    private let reloadGate = AsyncGate()
    /// Journal events go here.
    public let journal: JournalSink
    /// systemd notifications go here.
    public let notifier: SystemdNotifier

    /// Creates a runtime from a loaded configuration; throws when the trust store cannot be loaded.
    public init(loaded: LoadedConfiguration, journal: JournalSink, notifier: SystemdNotifier = SystemdNotifier())
        throws(ProbeError) {
        let prober = try TLSProber(caFile: loaded.config.caFile)
        let size = max(loaded.config.concurrency, 1)
        let pool = NIOThreadPool(numberOfThreads: size)
        pool.start()
        state = NIOLockedValueBox(State(loaded: loaded, prober: prober,
                                        detector: EventDetector(warningDays: loaded.config.expiryWarningDays),
                                        lint: PolicyLintTracker(), pool: pool, poolSize: size,
                                        lastReloadSuccess: Date()))
        self.journal = journal
        self.notifier = notifier
        announceLoad(loaded)
    }

    /// Stops the probe threads.
    public func shutdown() async {
        try? await state.withLockedValue { $0.pool }.shutdownGracefully()
    }

    /// The configuration in force.
    public var configuration: LoadedConfiguration { state.withLockedValue { $0.loaded } }

    /// Whether the first round has completed.
    public var isReady: Bool { state.withLockedValue { $0.ready } }

    /// What /metrics renders.
    public func snapshot() -> MetricsSnapshot {
        state.withLockedValue { s in
            var m = MetricsSnapshot()
            m.results = s.loaded.config.targets.compactMap { s.results[$0.name] }
            m.lintFindings = s.lintCounts
            m.version = PinGuardVersion.current
            m.openSSLVersion = TLSProber.openSSLVersion
            m.lastReloadSuccessful = s.lastReloadOK
            m.lastReloadSuccess = s.lastReloadSuccess
            m.targets = s.loaded.config.targets.count
            m.probesTotal = s.probesTotal
            m.probeFailuresTotal = s.probeFailuresTotal
            m.journalFailuresTotal = journal.failures
            m.roundDuration = s.roundDuration
            m.roundTimestamp = s.roundTimestamp
            return m
        }
    }

    private func announceLoad(_ loaded: LoadedConfiguration) {
        journal.send(.configLoaded(path: loaded.path, targets: loaded.config.targets.count,
                                   policySets: loaded.policySets.map(\.name)))
        relint()
    }

    /// Recomputes lint findings of the policies in force; writes events for new findings only.
    private func relint() {
        let events = state.withLockedValue { s -> [JournalEntry] in
            let (counts, events) = s.lint.update(s.loaded.policySets, now: Date(), windowDays: s.loaded.config.expiryWarningDays)
            s.lintCounts = counts
            return events
        }
        for e in events { journal.send(e) }
    }

    /// Reloads the configuration file in force. A bad file leaves the running configuration untouched,
    /// writes `config_invalid` and returns the error; a good one takes effect at once and wakes the scheduler.
    public func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError> {
        await reloadGate.enter()
        defer { reloadGate.leave() }
        notifier.reloading()
        defer { notifier.notify("READY=1") }
        let path = configuration.path
        // On a thread of its own: the probe pool may be busy with slow targets for a whole timeout.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(LoadedConfiguration, TLSProber), ConfigError>, Never>) in
            let thread = Thread {
                let loaded: LoadedConfiguration
                do { loaded = try ConfigurationLoader.load(path: path) } catch let error as ConfigError {
                    return continuation.resume(returning: .failure(error))
                } catch {
                    return continuation.resume(returning: .failure(ConfigError(file: path, line: nil, key: nil, message: "\(error)")))
                }
                do { continuation.resume(returning: .success((loaded, try TLSProber(caFile: loaded.config.caFile)))) } catch {
                    continuation.resume(returning: .failure(ConfigError(file: path, line: nil, key: "trust.ca_file", message: "\(error)")))
                }
            }
            thread.name = "pinguard-reload"
            thread.start()
        }
        switch outcome {
        case .failure(let error):
            state.withLockedValue { $0.lastReloadOK = false }
            journal.send(.configInvalid(path: path, error: error.description))
            StandardError.write("pinguard: reload (\(trigger)) rejected, previous configuration kept: \(error)")
            return .failure(error)
        case .success(let (loaded, prober)):
            let (events, retired) = state.withLockedValue { s -> ([JournalEntry], NIOThreadPool?) in
                if loaded.config.listen != s.loaded.config.listen {
                    StandardError.write("pinguard: listen address changes take effect on restart")
                }
                s.loaded = loaded
                s.prober = prober
                s.detector.warningDays = Double(loaded.config.expiryWarningDays)
                s.detector.retain(targets: Set(loaded.config.targets.map(\.name)))
                // Keep what was learned about endpoints that did not change, judged by the new policies at
                // once; drop the rest, so no series of a removed target, set or endpoint survives the reload.
                var events: [JournalEntry] = []
                var kept: [String: TargetResult] = [:]
                for (name, old) in s.results {
                    guard let target = s.sameEndpoint(old) else {
                        // A new endpoint under an old name starts afresh: its first probe is reported in full.
                        s.detector.forget(target: name)
                        continue
                    }
                    let result = TargetResult.evaluate(old.facts, target: target, sets: loaded.policySets, now: Date())
                    kept[name] = result
                    events += s.detector.observe(result)
                }
                s.results = kept
                var retired: NIOThreadPool?
                let wanted = max(loaded.config.concurrency, 1)
                if wanted != s.poolSize {
                    retired = s.pool
                    s.pool = NIOThreadPool(numberOfThreads: wanted)
                    s.pool.start()
                    s.poolSize = wanted
                }
                s.lastReloadOK = true
                s.lastReloadSuccess = Date()
                s.wakeRequested = true
                s.generation += 1
                return (events, retired)
            }
            journal.enabled = loaded.config.journalEnabled
            if let retired { Task.detached { try? await retired.shutdownGracefully() } }
            announceLoad(loaded)
            for e in events { journal.send(e) }
            return .success(loaded)
        }
    }

    /// Summary of one round.
    public struct RoundSummary: Sendable {
        /// Results of this round, in target order.
        public var results: [TargetResult]
        /// Seconds the round took.
        public var duration: Double
    }

    /// Probes every configured target once, at most `concurrency` at a time.
    ///
    /// - Parameter spread: start probes evenly over half the interval (capped at 250 ms apart) instead of
    ///   in one burst; the first round and `--once` run unspread so results are ready quickly.
    public func runRound(spread: Bool) async -> RoundSummary {
        let (config, sets, prober, generation) = state.withLockedValue {
            ($0.loaded.config, $0.loaded.policySets, $0.prober, $0.generation)
        }
        // Least recently probed first: a round cut short by a reload leaves the rest for the next one,
        // so frequent reloads cannot starve the end of the list.
        let targets = state.withLockedValue { s in
            config.targets.enumerated().sorted { a, b in
                let ta = s.results[a.element.name]?.facts.finishedAt ?? .distantPast
                let tb = s.results[b.element.name]?.facts.finishedAt ?? .distantPast
                return ta != tb ? ta < tb : a.offset < b.offset
            }.map(\.element)
        }
        let start = Date()
        let spacing = spread && !targets.isEmpty ? min(config.interval * 0.5 / Double(targets.count), 0.25) : 0
        let limit = max(config.concurrency, 1)
        var collected: [String: TargetResult] = [:]
        var lastStatus = Date.distantPast
        await withTaskGroup(of: TargetResult?.self) { group in
            var next = 0
            func launch() {
                let target = targets[next]
                next += 1
                let pool = state.withLockedValue { $0.pool }
                group.addTask {
                    let request = ProbeRequest(host: target.host, port: target.port, connect: target.connect, timeout: config.timeout)
                    let cancelled = CancellationFlag()
                    let facts = await withTaskCancellationHandler { () async -> ProbeFacts? in
                        if let facts = try? await pool.runIfActive({ prober.probe(request, cancelled: { cancelled.isSet }) }) {
                            return facts
                        }
                        // The pool was retired by a reload that changed `concurrency`: use the new one.
                        guard !cancelled.isSet else { return nil }
                        let current = self.state.withLockedValue { $0.pool }
                        return try? await current.runIfActive { prober.probe(request, cancelled: { cancelled.isSet }) }
                    } onCancel: {
                        cancelled.set()
                    }
                    // A probe cut short by shutdown learned nothing about the server: report nothing.
                    guard let facts, !cancelled.isSet else { return nil }
                    return TargetResult.evaluate(facts, target: target, sets: sets, now: Date())
                }
            }
            func configurationChanged() -> Bool { state.withLockedValue { $0.generation } != generation }
            while next < min(limit, targets.count) && !configurationChanged() {
                launch()
                if spacing > 0 { try? await Task.sleep(nanoseconds: UInt64(spacing * 1e9)) }
            }
            for await result in group {
                if let result {
                    collected[result.target.name] = result
                    record(result, generation: generation)
                }
                if Task.isCancelled { group.cancelAll(); continue }
                if Date().timeIntervalSince(lastStatus) > 0.5 {
                    lastStatus = Date()
                    notifier.status("round in progress: \(collected.count)/\(targets.count) targets probed")
                }
                // A reload ends this round's launches: the scheduler starts a round of the new configuration.
                if next < targets.count && !configurationChanged() {
                    if spacing > 0 { try? await Task.sleep(nanoseconds: UInt64(spacing * 1e9)) }
                    launch()
                }
            }
        }
        let duration = Date().timeIntervalSince(start)
        let ordered = config.targets.compactMap { collected[$0.name] }
        let complete = collected.count == targets.count
        if !Task.isCancelled {
            // Only a round that probed every target counts as one (readiness, round metrics).
            if complete {
                state.withLockedValue { s in
                    s.roundDuration = duration
                    s.roundTimestamp = Date()
                    s.ready = true
                }
            }
            relint()
            let rejects = ordered.filter { r in r.evaluations.contains { $0.verdict == .reject } }.count
            let failed = ordered.filter { !$0.facts.success }.count
            notifier.status("last round: \(ordered.count) targets, \(rejects) rejected by a client, \(failed) probes failed, \(String(format: "%.2f", duration))s; next in \(PromDuration.format(config.interval))")
        }
        return RoundSummary(results: ordered, duration: duration)
    }

    /// Stores a result (unless the configuration changed meanwhile and dropped the target) and writes its events.
    private func record(_ result: TargetResult, generation: Int) {
        var result = result
        let events: [JournalEntry] = state.withLockedValue { s in
            result.facts.servedChain = s.intern(result.facts.servedChain)
            result.facts.verifiedChain = s.intern(result.facts.verifiedChain)
            s.probesTotal += 1
            if !result.facts.success { s.probeFailuresTotal += 1 }
            if s.generation != generation {
                // Probed under a configuration replaced meanwhile: judge it by the one in force, if the
                // target still probes the same endpoint.
                guard let target = s.sameEndpoint(result) else { return [] }
                result = TargetResult.evaluate(result.facts, target: target, sets: s.loaded.policySets, now: Date())
            }
            s.results[result.target.name] = result
            return s.detector.observe(result)
        }
        for e in events { journal.send(e) }
    }

    /// Waits until `due` (one interval after the last round started) or until a reload asks for a round early.
    public func waitForNextRound(until due: Date) async {
        while Date() < due && !Task.isCancelled {
            let woken = state.withLockedValue { s -> Bool in
                defer { s.wakeRequested = false }
                return s.wakeRequested
            }
            if woken { return }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
    }
}

/// A flag set once from any thread (cancellation of a blocking probe).
final class CancellationFlag: Sendable {
    private let box = NIOLockedValueBox(false)
    var isSet: Bool { box.withLockedValue { $0 } }
    func set() { box.withLockedValue { $0 = true } }
}

/// An async mutual-exclusion gate: `enter` waits until no one else is inside.
final class AsyncGate: Sendable {
    private let box = NIOLockedValueBox((busy: false, waiters: [CheckedContinuation<Void, Never>]()))

    func enter() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let admitted = box.withLockedValue { s -> Bool in
                if s.busy { s.waiters.append(c); return false }
                s.busy = true
                return true
            }
            if admitted { c.resume() }
        }
    }

    func leave() {
        let next = box.withLockedValue { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty { s.busy = false; return nil }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }
}
