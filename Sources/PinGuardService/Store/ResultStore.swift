import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// The latest result of every target and what the event detector remembers of it, kept by the target's
/// position in the configuration (found by name through one index), with the detector that turns results
/// into journal events and the probe counters.
///
/// Every operation is O(1) per result, and a reload is O(targets): a 100,000-target service re-judges its
/// results in one pass (one name lookup per target, the judging on every core) under the lock that
/// `/metrics` also takes.
public final class ResultStore: Sendable {
    struct State {
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
        /// The judgement in force: a result probed under an older configuration is judged by it.
        var judge = Judge(sets: [])
        var generation = 0
        /// The latest result and what the event detector remembers of each target, by position.
        var results: [TargetResult?] = []
        var memories: [EventDetector.TargetMemory] = []
        /// Judges events; the store keeps each target's memory itself, next to its result.
        var detector: EventDetector
        var probesTotal: UInt64 = 0
        var probeFailuresTotal: UInt64 = 0
        /// Certificates seen, by hash: thousands of targets share a few intermediates and roots, and a leaf is
        /// in both the served and the verified chain of its result; handing out one shared copy of each
        /// certificate's facts keeps a large service small.
        var certificates: [String: ChainCertificate] = [:]
        /// The size of `certificates` after its last prune.
        var certificatesAfterPrune = 0
        /// Forecast arrays and issuer pools that many results hold alike, held once.
        var sharing = ForecastSharing()
        /// The few texts every probe reports alike (cipher, version, group), held once.
        var texts: [String: String] = [:]

        /// `text` as the copy seen before, if any (at most 256 distinct texts are kept).
        mutating func intern(_ text: String?) -> String? {
            guard let text else { return nil }
            if let shared = texts[text] { return shared }
            if texts.count < 256 { texts[text] = text }
            return text
        }

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
                if certificates.count >= max(1_024, 2 * certificatesAfterPrune) { pruneCertificates() }
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
            certificatesAfterPrune = certificates.count
        }

        /// Takes the targets of a configuration: every slice gets a new version.
        mutating func take(_ config: ServiceConfig) {
            targets = config.targets
            let names = config.targets.map(\.name)
            // The same targets in the same order (most reloads) keep their index; only a change hashes every name.
            if names != order {
                position = [:]
                position.reserveCapacity(names.count)
                for (p, name) in names.enumerated() where position[name] == nil { position[name] = p }
            }
            order = names
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

        /// Marks the slice of the target at position `p` changed.
        mutating func touch(_ p: Int) {
            clock += 1
            sliceVersions[p / ResultStore.sliceSize] = clock
        }

        /// The position of the target of the configuration in force that probes the same endpoint as
        /// `result` did.
        func sameEndpoint(_ result: TargetResult) -> Int? {
            guard let p = position[result.target.name], targets[p].probesSameEndpoint(as: result.target) else { return nil }
            return p
        }
    }

    let state: NIOLockedValueBox<State>

    /// Creates an empty store for `config` and `sets`.
    public convenience init(config: ServiceConfig, sets: [PolicySet]) {
        self.init(config: config, judge: Judge(sets: sets))
    }

    /// Creates an empty store for `config`, judged by `judge`.
    public init(config: ServiceConfig, judge: Judge) {
        var s = State(detector: EventDetector(warningDays: config.expiryWarningDays))
        s.take(config)
        s.results = Array(repeating: nil, count: s.targets.count)
        s.memories = Array(repeating: EventDetector.TargetMemory(), count: s.targets.count)
        s.sets = judge.sets
        s.judge = judge
        state = NIOLockedValueBox(s)
    }

    /// The generation of the configuration in force (incremented by every `apply`).
    public var generation: Int { state.withLockedValue { $0.generation } }

    /// Results of the configured targets, in configuration order (targets not probed yet are left out).
    public var results: [TargetResult] {
        state.withLockedValue { s in s.results.compactMap { $0 } }
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
            return (s.sliceVersions[index], s.results[start..<end].compactMap { $0 })
        }
    }

    /// Certificates the store keeps for sharing (the table `record` interns by), in use or not yet pruned.
    var certificatesKept: Int { state.withLockedValue { $0.certificates.count } }

    /// The result of the target named `name`.
    public func result(named name: String) -> TargetResult? {
        state.withLockedValue { s in s.position[name].flatMap { s.results[$0] } }
    }

    /// When each target was last probed (targets never probed are absent).
    public func lastProbed() -> [String: Date] {
        state.withLockedValue { s in
            var last: [String: Date] = [:]
            last.reserveCapacity(s.results.count)
            // Through the buffer: each result is read in place (an element read from the array itself is copied whole).
            s.results.withUnsafeBufferPointer { b in
                for i in b.indices { if let name = b[i]?.target.name, let at = b[i]?.finishedAt { last[name] = at } }
            }
            return last
        }
    }

    /// Address probes recorded, and of those failed, since start.
    public var counters: (probes: UInt64, failures: UInt64) {
        state.withLockedValue { ($0.probesTotal, $0.probeFailuresTotal) }
    }

    /// Records a probe result made under configuration `generation`, and returns its journal events.
    ///
    /// A result made under a configuration replaced meanwhile is judged by the one in force, and dropped
    /// when its target no longer probes the same endpoint. `counted` is false for a result judged again without
    /// a probe (a CRL arrived): it adds nothing to the probe counters.
    public func record(_ result: TargetResult, generation: Int, now: Date, counted: Bool = true) -> [JournalEntry] {
        var result = result
        return state.withLockedValue { s in
            for i in result.nodes.indices {
                result.nodes[i].facts.servedChain = s.intern(result.nodes[i].facts.servedChain)
                result.nodes[i].facts.verifiedChain = s.intern(result.nodes[i].facts.verifiedChain)
                result.nodes[i].facts.tlsCipher = s.intern(result.nodes[i].facts.tlsCipher)
                result.nodes[i].facts.tlsVersion = s.intern(result.nodes[i].facts.tlsVersion)
                result.nodes[i].facts.tlsGroup = s.intern(result.nodes[i].facts.tlsGroup)
                // The probe's copy of the host name gives way to the configuration's (one string per target).
                if result.nodes[i].facts.host == result.target.host { result.nodes[i].facts.host = result.target.host }
                guard counted else { continue }
                s.probesTotal += 1
                if !result.nodes[i].facts.success { s.probeFailuresTotal += 1 }
            }
            let p: Int
            if s.generation != generation {
                guard let same = s.sameEndpoint(result) else { return [] }
                p = same
                result = s.judge.judge(result.probe, target: s.targets[p], now: now)
            } else {
                guard let same = s.position[result.target.name] else { return [] }
                p = same
            }
            let forecastEvents = ForecastEvents.changes(from: s.results[p], to: result)
                + EarlyRenewalEvents.changes(from: s.results[p], to: result)
            s.sharing.share(&result)
            s.results[p] = result
            s.touch(p)
            return s.detector.observe(result, memory: &s.memories[p]) + forecastEvents
        }
    }
}
