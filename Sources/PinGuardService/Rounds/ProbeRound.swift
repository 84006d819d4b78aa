import Foundation
import PinGuardCore
import PinGuardReaders

/// One round: every target of a configuration probed once, at most `concurrency` at a time, optionally
/// spread over half the interval, each result recorded as soon as it arrives.
struct ProbeRound {
    let config: ServiceConfig
    /// The one judgement of the configuration in force (policies, CT, renewal outlook).
    let judge: Judge
    let generation: Int
    let executor: any ProbeExecutor
    /// Attaches the revocation state of each chain's certificates before it is judged; nil: not checked.
    let revocation: RevocationChecker?
    /// Downloads the issuers Chrome and Apple would download, for the probes whose paths wait for them; the target is
    /// then probed again before it is judged (nil: none is downloaded).
    let issuers: IssuerDownloads?
    let store: ResultStore
    /// Remembers each recorded result's chains (renewals, rollbacks).
    let memory: ChainMemory
    let clock: any ServiceClock
    /// Journal events of each recorded result go here.
    let emit: @Sendable ([JournalEntry]) -> Void
    /// Progress for systemd's status line: (probed, total).
    let progress: @Sendable (Int, Int) -> Void

    /// The targets this round probed, what their results came to, its duration, and whether every
    /// target was probed. The results themselves are in the store only: holding a second copy of 100,000
    /// results until the round ends doubled the peak, and freeing it left the heap full of holes.
    struct Outcome {
        var probed: Set<String>
        var counts: (rejects: Int, failed: Int, addresses: Int)
        var duration: Double
        var complete: Bool
    }

    /// Least recently probed first: a round cut short by a reload leaves the rest for the next one, so
    /// frequent reloads cannot starve the end of the list. Ties keep configuration order.
    static func order(_ targets: [Target], lastProbed: [String: Date]) -> [Target] {
        targets.enumerated().sorted { a, b in
            let ta = lastProbed[a.element.name] ?? .distantPast
            let tb = lastProbed[b.element.name] ?? .distantPast
            return ta != tb ? ta < tb : a.offset < b.offset
        }.map(\.element)
    }

    /// Seconds between probe launches: spread over half the interval, at most 250 ms apart.
    static func spacing(targets: Int, interval: Double, spread: Bool) -> Double {
        spread && targets > 0 ? min(interval * 0.5 / Double(targets), 0.25) : 0
    }

    /// Runs the round; a reload (a new store generation) ends its launches, and cancellation its probes.
    func run(spread: Bool) async -> Outcome {
        let targets = Self.order(config.targets, lastProbed: store.lastProbed())
        let start = clock.now
        let spacing = Self.spacing(targets: targets.count, interval: config.interval, spread: spread)
        let limit = max(config.concurrency, 1)
        var probed = Set<String>()
        var counts = (rejects: 0, failed: 0, addresses: 0)
        // Decisions on every core as probes finish; the forecast once the memory has observed the result, so a
        // renewal seen in this round is what the forecast of this round knows.
        let executor = executor, revocation = revocation, issuers = issuers, deciding = Judge(sets: judge.sets, ct: judge.ct), clock = clock, timeout = config.timeout
        await withTaskGroup(of: TargetResult?.self) { group in
            var next = 0
            func launch() {
                let target = targets[next]
                next += 1
                group.addTask {
                    guard var probed = await executor.probe(target, timeout: timeout) else { return nil }
                    if let issuers {
                        probed = await probed.resolvingIssuers(download: { await issuers.download($0) }) {
                            await executor.probe(target, timeout: timeout)
                        }
                    }
                    let probe = await revocation?.attach(to: probed) ?? probed
                    return deciding.judge(probe, target: target, now: clock.now)
                }
            }
            func configurationChanged() -> Bool { store.generation != generation }
            func pause() async {
                if spacing > 0 { try? await clock.sleep(seconds: spacing) }
            }
            while next < min(limit, targets.count) && !configurationChanged() && !Task.isCancelled {
                launch()
                if next < min(limit, targets.count) { await pause() }
            }
            for await result in group {
                if var result {
                    probed.insert(result.target.name)
                    let c = OnceSummary.counts([result])
                    counts = (counts.rejects + c.rejects, counts.failed + c.failed, counts.addresses + c.addresses)
                    let observed = memory.observe(result, now: clock.now)
                    judge.forecast(&result)
                    emit(store.record(result, generation: generation, now: clock.now))
                    emit(observed)
                }
                if Task.isCancelled { group.cancelAll(); continue }
                progress(probed.count, targets.count)
                if next < targets.count && !configurationChanged() {
                    await pause()
                    // A reload during the pause ends the round's launches too.
                    if !configurationChanged() && !Task.isCancelled { launch() }
                }
            }
        }
        let duration = clock.now.timeIntervalSince(start)
        return Outcome(probed: probed, counts: counts, duration: duration, complete: probed.count == targets.count)
    }
}
