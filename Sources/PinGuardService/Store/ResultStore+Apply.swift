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
            let othersChanged = outlookChanged || ctChanged || Double(config.expiryWarningDays) != s.detector.warningDays
            let change = PolicyChange(from: s.sets, to: sets, othersChanged: othersChanged)
            let rejudgeAll = change.any || othersChanged
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
                    work.append(Rejudge(position: p, previous: q, keepable: change.hostEditsOnly && old == s.targets[p]))
                }
            }
            s.keepVersions(of: oldOrder)
            for p in dropped { s.touch(p) }
            let what = Rejudging(unchanged: change.unchanged, policiesChanged: change.any, outlookChanged: outlookChanged, ctChanged: ctChanged,
                                 alike: change.alike)
            let input = RejudgeInput(targets: s.targets, judge: judge, what: what, now: now, detector: s.detector, edited: change.edited)
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

/// What a reload changed in the policy sets.
struct PolicyChange {
    /// Whether any set changed, came or went.
    var any: Bool
    /// Sets whose policies are the same before and after: their decisions are kept.
    var unchanged: Set<String>
    /// Sets edited only in their host policies (`PolicySet.judgesHostsLike`): a target whose host's policy is the
    /// same in them keeps their decisions.
    var alike: Set<String>
    /// Every set not in `unchanged`.
    var edited: Set<String>
    /// Whether edits of host policies are all that changed (the same sets in the same order, nothing else of the
    /// configuration that judging reads): a target whose host has the same policy in each edited set then keeps
    /// its result as it is, as when no policy changed, and an edit of one host's policy touches no other target.
    var hostEditsOnly: Bool

    init(from old: [PolicySet], to new: [PolicySet], othersChanged: Bool) {
        let before = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        any = new != old
        unchanged = Set(new.filter { before[$0.name] == $0 }.map(\.name))
        alike = Set(new.filter { set in before[set.name].map { $0 != set && $0.judgesHostsLike(set) } ?? false }.map(\.name))
        edited = Set(new.map(\.name)).subtracting(unchanged)
        hostEditsOnly = !othersChanged && !edited.isEmpty && edited.isSubset(of: alike) && new.map(\.name) == old.map(\.name)
    }
}
