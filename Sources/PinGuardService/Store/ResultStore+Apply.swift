import Foundation
import PinGuardCore

/// A new configuration taken in: results kept, moved to their new positions and judged again by the new
/// policies (the judging itself in ResultStore+Rejudge).
extension ResultStore {
    /// Takes a new configuration: results of endpoints that did not change are kept and judged by the new
    /// policies at once; the rest are dropped (a new endpoint under an old name is reported afresh), so no
    /// series of a removed target, set or endpoint survives. Returns the events of the re-judged results.
    ///
    /// When neither the policy sets nor the expiry warning window changed, a target whose definition is the
    /// same keeps its result as judged at its probe (judging it again would give the same verdicts; only
    /// `days_to_*` fields would move, and the next probe moves them), so adding or removing a few targets
    /// of 100,000 costs no judging and leaves `/metrics` slices of untouched targets as they are.
    public func apply(config: ServiceConfig, sets: [PolicySet], now: Date) -> [JournalEntry] {
        let current = state.withLockedValue { $0.judge }
        return apply(config: config, judge: Judge(sets: sets, ct: current.ct, renewals: current.renewals), outlookChanged: false,
                     ctChanged: false, now: now)
    }

    /// `apply(config:sets:now:)` judged by `judge`, which is also what judges results probed under the old
    /// configuration from now on; `outlookChanged` (the configuration's `renewal`, `issuer_pools` or catalog)
    /// and `ctChanged` (the CT settings) judge every kept result again, its forecast made anew or its SCTs.
    public func apply(config: ServiceConfig, judge: Judge, outlookChanged: Bool, ctChanged: Bool, now: Date) -> [JournalEntry] {
        let sets = judge.sets
        let (events, replaced) = state.withLockedValue { s -> ([JournalEntry], [TargetResult?]) in
            let policiesChanged = sets != s.sets
            let othersChanged = outlookChanged || ctChanged || Double(config.expiryWarningDays) != s.detector.warningDays
            let rejudgeAll = policiesChanged || othersChanged
            // Sets whose policies are the same before and after: their decisions are kept.
            let before = Dictionary(s.sets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            let unchanged = Set(sets.filter { before[$0.name] == $0 }.map(\.name))
            // Sets edited only in their host policies: a target whose host's policy is the same keeps their decisions.
            let alike = Set(sets.filter { set in before[set.name].map { $0 != set && $0.judgesHostsLike(set) } ?? false }.map(\.name))
            // When nothing else changed, a target whose host has the same policy in each of them keeps its result as
            // it is, as when no policy changed: an edit of one host's policy touches no other target.
            let edited = Set(sets.map(\.name)).subtracting(unchanged)
            let hostEditsOnly = !othersChanged && !edited.isEmpty && edited.isSubset(of: alike) && sets.map(\.name) == s.sets.map(\.name)
            let oldOrder = s.order, oldPosition = s.position
            // Held once here, so that results and memories move to their new positions instead of being copied.
            var oldResults = s.results, oldMemories = s.memories
            s.results = []
            s.memories = []
            s.take(config)
            s.sets = sets
            s.judge = judge
            s.generation += 1
            s.detector.warningDays = Double(config.expiryWarningDays)
            // Targets no longer configured, and endpoints that changed, start with no result and no memory.
            var results = [TargetResult?](repeating: nil, count: s.targets.count)
            var memories = [EventDetector.TargetMemory](repeating: EventDetector.TargetMemory(), count: s.targets.count)
            var work: [Rejudge] = []
            var dropped: [Int] = []
            for p in s.targets.indices {
                // The target read through the buffer: an element read from the array itself is copied whole.
                guard let q = oldPosition[s.targets[p].name], let old = oldResults.withUnsafeBufferPointer({ $0[q]?.target }) else { continue }
                if !s.targets[p].probesSameEndpoint(as: old) {
                    dropped.append(p)
                } else if !rejudgeAll && old == s.targets[p] {
                    results[p] = oldResults[q].take()
                    swap(&memories[p], &oldMemories[q])
                } else {
                    // Whether its host kept its policies is looked at by the judging, on every core.
                    work.append(Rejudge(position: p, previous: q, keepable: hostEditsOnly && old == s.targets[p]))
                }
            }
            s.keepVersions(of: oldOrder)
            for p in dropped { s.touch(p) }
            let what = Rejudging(unchanged: unchanged, policiesChanged: policiesChanged, outlookChanged: outlookChanged, ctChanged: ctChanged,
                                 alike: alike)
            let input = RejudgeInput(targets: s.targets, judge: judge, what: what, now: now, detector: s.detector, edited: edited)
            let outcomes = ResultStore.judge(work, input, old: &oldResults, oldMemories: &oldMemories, results: &results,
                                             memories: &memories)
            // Forecasts made again share the arrays equal ones hold (one pass, after the parallel judging); a result
            // kept as it is changes no slice.
            for (i, w) in work.enumerated() where !outcomes[i].kept {
                s.touch(w.position)
                if results[w.position] != nil { s.sharing.share(&results[w.position]!, pools: outlookChanged) }
            }
            s.results = results
            s.memories = memories
            return (outcomes.flatMap(\.events), oldResults)
        }
        ResultStore.release(consume replaced)
        return events
    }
}
