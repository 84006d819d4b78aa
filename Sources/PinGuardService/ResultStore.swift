import Foundation
import NIOConcurrencyHelpers
import PinGuardCore

/// The latest result of every target, indexed by target name, with the state-change detector that turns
/// results into journal events and the probe counters.
///
/// Every operation is O(1) per result, and a reload is O(targets): a 100,000-target service re-judges its
/// results in one pass under the lock that `/metrics` also takes.
public final class ResultStore: Sendable {
    private struct State {
        /// Targets of the configuration in force (the configuration's own array, not a copy), found by name
        /// through `position`.
        var targets: [Target] = []
        var order: [String] = []
        /// Each target's position in `order`, and the version of each slice of `sliceSize` positions: the
        /// value of `clock` when a result in it last changed (what `/metrics` re-renders by).
        var position: [String: Int] = [:]
        var sliceVersions: [UInt64] = []
        /// The slice versions before the last `take`.
        var previousVersions: [UInt64] = []
        var clock: UInt64 = 0
        var sets: [PolicySet] = []
        var generation = 0
        /// The latest result of each configured target at its position in `order` (an array: a dictionary of
        /// 100,000 results keeps 262,144 buckets of 216 bytes), and by name those of targets the configuration
        /// does not list (rare: a result recorded for a name it does not hold), kept until the next `apply`.
        var slots: [TargetResult?] = []
        var unplaced: [String: TargetResult] = [:]
        var detector: EventDetector
        var probesTotal: UInt64 = 0
        var probeFailuresTotal: UInt64 = 0
        /// Certificates seen, by hash: thousands of targets share a few intermediates and roots, and a leaf is
        /// in both the served and the verified chain of its result; handing out one shared copy of each
        /// certificate's facts keeps a large service small.
        var certificates: [String: ChainCertificate] = [:]
        /// The size of `certificates` after its last prune.
        var certificatesKept = 0

        /// `chain` with each certificate's facts replaced by the shared copy of an equal certificate seen
        /// before (depth and source stay those of its position), the others remembered for the next chains.
        mutating func intern(_ chain: [ChainCertificate]) -> [ChainCertificate] {
            chain.map { c in
                if var shared = certificates[c.certSHA256] {
                    shared.depth = c.depth
                    shared.source = c.source
                    if shared == c { return shared }
                    // Same hash, other facts (hand-made results do this): the newest wins, nothing is changed.
                }
                if certificates.count >= max(1_024, 2 * certificatesKept) { pruneCertificates() }
                certificates[c.certSHA256] = c
                return c
            }
        }

        /// Drops the certificates that no result holds any more (only this table does), so the table stays
        /// within about twice the certificates in use, at an amortized O(1) per certificate interned.
        mutating func pruneCertificates() {
            // Through the subscript by key, which mutates the value in place (`values[i]` works on a copy,
            // which would never be alone).
            for hash in Array(certificates.keys) where certificates[hash]?.holdsFactsAlone() == true {
                certificates[hash] = nil
            }
            certificatesKept = certificates.count
        }

        /// The result of target `name`.
        func result(_ name: String) -> TargetResult? {
            guard let p = position[name] else { return unplaced[name] }
            return slots[p]
        }

        /// Keeps `r` as the result of its target.
        mutating func keep(_ r: TargetResult) {
            if let p = position[r.target.name] { slots[p] = r } else { unplaced[r.target.name] = r }
        }

        /// Takes the targets of a configuration, with no results: every slice gets a new version.
        mutating func take(_ config: ServiceConfig) {
            targets = config.targets
            order = config.targets.map(\.name)
            position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            slots = Array(repeating: nil, count: order.count)
            unplaced = [:]
            clock += 1
            previousVersions = sliceVersions
            sliceVersions = Array(repeating: clock, count: (order.count + ResultStore.sliceSize - 1) / ResultStore.sliceSize)
        }

        /// After `take`, gives back their previous versions to the slices that hold the same targets in the
        /// same places as under `oldOrder` (and so, unless a result is touched, the same series).
        mutating func keepVersions(of oldOrder: [String]) {
            let size = ResultStore.sliceSize
            for i in sliceVersions.indices where i < previousVersions.count {
                let now = (i * size)..<min((i + 1) * size, order.count)
                let before = (i * size)..<min((i + 1) * size, oldOrder.count)
                if now == before && order[now].elementsEqual(oldOrder[before]) { sliceVersions[i] = previousVersions[i] }
            }
        }

        /// Marks the slice of target `name` changed.
        mutating func touch(_ name: String) {
            guard let p = position[name] else { return }
            clock += 1
            sliceVersions[p / ResultStore.sliceSize] = clock
        }

        /// The target of the configuration in force that probes the same endpoint as `result` did.
        func sameEndpoint(_ result: TargetResult) -> Target? {
            guard let p = position[result.target.name], targets[p].probesSameEndpoint(as: result.target) else { return nil }
            return targets[p]
        }
    }

    private let state: NIOLockedValueBox<State>

    /// Creates an empty store for `config` and `sets`.
    public init(config: ServiceConfig, sets: [PolicySet]) {
        var s = State(detector: EventDetector(warningDays: config.expiryWarningDays))
        s.take(config)
        s.sets = sets
        state = NIOLockedValueBox(s)
    }

    /// The generation of the configuration in force (incremented by every `apply`).
    public var generation: Int { state.withLockedValue { $0.generation } }

    /// Results of the configured targets, in configuration order (targets not probed yet are left out).
    public var results: [TargetResult] {
        state.withLockedValue { s in s.order.compactMap { s.result($0) } }
    }

    /// One target to judge again on a reload: its probe, its definition, and what the detector remembers.
    struct Rejudge {
        var probe: TargetProbe
        var target: Target
        var memory: EventDetector.TargetMemory
    }

    /// `TargetResult.evaluate` of each probe and the events of the new result against the target's memory
    /// (updated in place), in order, on one thread per core (at most 4): judging and detecting are most of
    /// a reload's work, and each target's are independent of the others'.
    static func judge(_ work: inout [Rejudge], sets: [PolicySet], now: Date, detector: EventDetector) -> [(TargetResult, [JournalEntry])] {
        @Sendable func one(_ w: inout Rejudge) -> (TargetResult, [JournalEntry]) {
            let result = TargetResult.evaluate(w.probe, target: w.target, sets: sets, now: now)
            return (result, detector.observe(result, memory: &w.memory))
        }
        guard work.count > 256 else { return work.indices.map { one(&work[$0]) } }
        let workers = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        var out = [(TargetResult, [JournalEntry])?](repeating: nil, count: work.count)
        let count = work.count
        work.withUnsafeMutableBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                // Each worker reads and writes only its own indices.
                nonisolated(unsafe) let items = input
                nonisolated(unsafe) let slots = output
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    for i in stride(from: w, to: count, by: workers) { slots[i] = one(&items[i]) }
                }
            }
        }
        return out.compactMap { $0 }
    }

    /// Targets per slice: `/metrics` keeps each slice's series rendered and compressed, and redoes a slice
    /// only when one of its results changed.
    public static let sliceSize = 1024

    /// The version of each slice of `sliceSize` targets in configuration order; a slice's version changes
    /// whenever one of its results does (or the configuration is replaced).
    public var sliceVersions: [UInt64] { state.withLockedValue { $0.sliceVersions } }

    /// The results of slice `index` in configuration order (targets not probed yet are left out), and
    /// the slice's version; nil when there is no such slice (the configuration was replaced meanwhile).
    public func slice(_ index: Int) -> (version: UInt64, results: [TargetResult])? {
        state.withLockedValue { s in
            guard index < s.sliceVersions.count else { return nil }
            let start = index * ResultStore.sliceSize
            let end = min(start + ResultStore.sliceSize, s.order.count)
            return (s.sliceVersions[index], s.order[start..<end].compactMap { s.result($0) })
        }
    }

    /// Certificates the store keeps for sharing (the table `record` interns by), in use or not yet pruned.
    var certificatesKept: Int { state.withLockedValue { $0.certificates.count } }

    /// The result of the target named `name`.
    public func result(named name: String) -> TargetResult? { state.withLockedValue { $0.result(name) } }

    /// When each target was last probed (targets never probed are absent).
    public func lastProbed() -> [String: Date] {
        state.withLockedValue { s in
            var out = s.unplaced.mapValues(\.finishedAt)
            for case let r? in s.slots { out[r.target.name] = r.finishedAt }
            return out
        }
    }

    /// Address probes recorded, and of those failed, since start.
    public var counters: (probes: UInt64, failures: UInt64) {
        state.withLockedValue { ($0.probesTotal, $0.probeFailuresTotal) }
    }

    /// Records a probe result made under configuration `generation`, and returns its journal events.
    ///
    /// A result made under a configuration replaced meanwhile is judged by the one in force, and dropped
    /// when its target no longer probes the same endpoint.
    public func record(_ result: TargetResult, generation: Int, now: Date) -> [JournalEntry] {
        var result = result
        return state.withLockedValue { s in
            for i in result.nodes.indices {
                result.nodes[i].facts.servedChain = s.intern(result.nodes[i].facts.servedChain)
                result.nodes[i].facts.verifiedChain = s.intern(result.nodes[i].facts.verifiedChain)
                s.probesTotal += 1
                if !result.nodes[i].facts.success { s.probeFailuresTotal += 1 }
            }
            if s.generation != generation {
                guard let target = s.sameEndpoint(result) else { return [] }
                result = TargetResult.evaluate(result.probe, target: target, sets: s.sets, now: now)
            }
            s.keep(result)
            s.touch(result.target.name)
            return s.detector.observe(result)
        }
    }

    /// Takes a new configuration: results of endpoints that did not change are kept and judged by the new
    /// policies at once; the rest are dropped (a new endpoint under an old name is reported afresh), so no
    /// series of a removed target, set or endpoint survives. Returns the events of the re-judged results.
    ///
    /// When neither the policy sets nor the expiry warning window changed, a target whose definition is the
    /// same keeps its result as judged at its probe (judging it again would give the same verdicts; only
    /// `days_to_*` fields would move, and the next probe moves them), so adding or removing a few targets
    /// of 100,000 costs no judging and leaves `/metrics` slices of untouched targets as they are.
    public func apply(config: ServiceConfig, sets: [PolicySet], now: Date) -> [JournalEntry] {
        state.withLockedValue { s in
            let rejudgeAll = sets != s.sets || Double(config.expiryWarningDays) != s.detector.warningDays
            let oldOrder = s.order
            // The results under the old positions: `take` replaces these three (nothing is copied).
            let (oldPosition, oldSlots, oldUnplaced) = (s.position, s.slots, s.unplaced)
            func previous(_ name: String) -> TargetResult? {
                guard let p = oldPosition[name] else { return oldUnplaced[name] }
                return oldSlots[p]
            }
            s.take(config)
            s.sets = sets
            s.generation += 1
            s.detector.warningDays = Double(config.expiryWarningDays)
            s.detector.retain(targets: Set(s.order))
            var work: [Rejudge] = []
            var dropped: [String] = []
            for name in s.order {
                guard let old = previous(name) else { continue }
                guard let target = s.sameEndpoint(old) else {
                    s.detector.forget(target: name)
                    dropped.append(name)
                    continue
                }
                if !rejudgeAll && old.target == target {
                    s.keep(old)
                } else {
                    work.append(Rejudge(probe: old.probe, target: target, memory: s.detector.memory(of: name)))
                }
            }
            s.keepVersions(of: oldOrder)
            for name in dropped { s.touch(name) }
            let judged = ResultStore.judge(&work, sets: sets, now: now, detector: s.detector)
            var events: [JournalEntry] = []
            for (i, (result, found)) in judged.enumerated() {
                s.keep(result)
                s.touch(result.target.name)
                s.detector.remember(work[i].memory, of: result.target.name)
                events += found
            }
            return events
        }
    }
}
