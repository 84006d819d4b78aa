import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardState

extension ChainMemory {
    /// Remembers the chains of `result` (each address with a chain) in the round under way, and returns the
    /// events they cause: `certificate_renewed` for the first address of the target to serve a new leaf,
    /// `chain_rollback` for an address that went back to an older one.
    public func observe(_ result: TargetResult, now: Date) -> [JournalEntry] {
        let chains = result.nodes.compactMap { node in ServedChain(node.facts).map { (node.address, $0) } }
        guard !chains.isEmpty else { return [] }
        let seconds = Int64(now.timeIntervalSince1970)
        return state.withLockedValue { s in
            let round = s.round ?? s.store.beginRound(now: seconds)
            s.round = round
            var events: [JournalEntry] = []
            for (address, chain) in chains {
                switch round.observe(target: result.target.name, address: address, chain: chain) {
                case .renewal(let keyReused, let issuerChanged, let previous):
                    events.append(.certificateRenewed(result.target, address: address, from: previous, to: chain,
                                                      keyReused: keyReused, issuerChanged: issuerChanged))
                case .rollback(let older, let previous):
                    events.append(.chainRollback(result.target, address: address, to: older, from: previous))
                case .firstSight, .unchanged, .addressCaughtUp:
                    break
                }
            }
            let facts = TargetMemoryFacts(
                target: result.target.name, renewals: s.store.renewalSummary(target: result.target.name) ?? RenewalSummary(),
                keyFirstSeen: chains.compactMap { address, _ in Self.keptKeyAge(s.store, target: result.target.name, address: address) })
            let kept = facts.isReported ? facts : nil
            if s.targets[result.target.name] != kept {
                s.targets[result.target.name] = kept
                s.version += 1
                s.facts = nil
            }
            return events
        }
    }

    /// Writes the round's changes in one transaction (a round that changed nothing writes nothing). A file
    /// that cannot be written keeps the changes for the next commit; a file that could not be opened is
    /// tried again. Returns `state_unavailable` on a new failure, `state_recovered` when writing works again.
    /// A file refused for good (damaged, foreign, newer schema) stays unwritten: the memory settles the
    /// round in memory and reports nothing new, so the metric stays 0 as `state_unavailable` said.
    public func commit(now: Date) -> [JournalEntry] {
        state.withLockedValue { s in
            let round = s.round ?? s.store.beginRound(now: Int64(now.timeIntervalSince1970))
            s.round = nil
            guard let path = location.written, s.store.path != nil else {
                // In memory: the commit writes nothing but settles the round's changes.
                _ = try? s.store.commit(round)
                guard case .file(let path) = location, let retry = s.retryPath else { return [] }
                return Self.retry(retry, announcing: path, &s)
            }
            return Self.write(round, to: path, &s)
        }
    }

    /// Tries the file that could not be opened again; once it opens, what it remembers takes over (the next
    /// round judges renewals against it) and `state_recovered` says so.
    /// A new cause of failure is reported once (`state_unavailable`), as at start.
    private static func retry(_ retry: String, announcing path: String, _ s: inout State) -> [JournalEntry] {
        if let error = reopen(retry, &s) {
            guard s.failure != error.message else { return [] }
            s.failure = error.message
            return [.stateUnavailable(path: path, error: error.message)]
        }
        s.writable = true
        s.failure = nil
        s.version += 1
        s.facts = nil
        return [.stateRecovered(path: path)]
    }

    /// Commits `round` to the open file; reports a new failure once, and the first success after one.
    private static func write(_ round: StateRound, to path: String, _ s: inout State) -> [JournalEntry] {
        let wasWritable = s.writable
        do throws(StateError) {
            try s.store.commit(round)
            s.writable = true
            s.failure = nil
        } catch {
            s.writable = false
            if wasWritable != s.writable { s.version += 1; s.facts = nil }
            // While it stays unwritable for the same kind of cause (a database's connection refused, then timed
            // out), it is one problem, said once.
            guard s.failure != error.message, wasWritable || s.failureCode != error.code else { return [] }
            s.failure = error.message
            s.failureCode = error.code
            return [.stateUnavailable(path: path, error: error.message)]
        }
        guard !wasWritable else { return [] }
        s.version += 1
        s.facts = nil
        return [.stateRecovered(path: path)]
    }

    /// Opens the state file again after a failure that may have passed, checking it as at start; on success
    /// the file's memory replaces the one kept meanwhile (the next round judges renewals against what the
    /// file remembers). Returns why it still cannot be used; a cause that will not pass ends the retries.
    private static func reopen(_ path: String, _ s: inout State) -> StateError? {
        do throws(StateError) {
            s.store = try StateStore.open(path: path, readOnly: false)
            s.retryPath = nil
            s.targets = [:]
            seed(&s)
            return nil
        } catch {
            if !mayPass(error.code) { s.retryPath = nil }
            return error
        }
    }

    /// Takes the targets of a new configuration: forgets the metrics of those gone, takes the history of those
    /// new here from a shared database, and drops from the file the targets gone for longer than `retention`
    /// seconds (written with the next commit).
    public func configure(targets: Set<String>, now: Date, retention: Double) {
        state.withLockedValue { s in
            let arrived = targets.subtracting(s.configured)
            s.configured = targets
            // From a shared database, targets the reload gave this instance (another shard's, or new here) come
            // with the history other instances wrote; unreadable now, they start without it.
            if case .database = location, !arrived.isEmpty, (try? s.store.adopt(arrived)) != nil { Self.seed(&s) }
            _ = s.store.prune(configuredTargets: targets, now: Int64(now.timeIntervalSince1970), retention: Int64(retention))
            // Only what went is removed: a reload that keeps every target rebuilds nothing.
            let gone = s.targets.keys.filter { !targets.contains($0) }
            for name in gone { s.targets[name] = nil }
            if !gone.isEmpty { s.version += 1; s.facts = nil }
        }
    }

    /// What /metrics reports, rebuilt only after a change.
    public var facts: ChainMemoryFacts {
        state.withLockedValue { s in
            if let facts = s.facts { return facts }
            var facts = ChainMemoryFacts()
            facts.version = s.version
            facts.writable = s.writable
            facts.targets = s.targets.values.sorted { $0.target < $1.target }
            s.facts = facts
            return facts
        }
    }

    /// What /metrics reports of `target`; nil when nothing (no renewal observed, no key kept across one).
    public func facts(of target: String) -> TargetMemoryFacts? {
        state.withLockedValue { $0.targets[target] }
    }

    /// Every chain remembered for `target`, oldest first.
    public func history(target: String) -> [StoredChain] {
        state.withLockedValue { $0.store.history(target: target) }
    }

    /// Closes the state file (uncommitted changes are dropped: commit first).
    public func close() {
        state.withLockedValue { $0.store.close() }
    }
}

extension ChainMemory {
    /// What the memory knows of `target`'s renewals for the forecast: whether the last renewal kept the key,
    /// and the distinct issuers it was served by (each above the leaf, with the current chain's anchor).
    public func observed(target: String, anchor: ChainCertificate?) -> ObservedRenewals? {
        let (summary, history) = state.withLockedValue { ($0.store.renewalSummary(target: target), $0.store.history(target: target)) }
        guard !history.isEmpty else { return nil }
        var seen = Set<ChainDigest>()
        var issuers: [IssuerOption] = []
        for c in history where seen.insert(c.chain.issuerSPKISHA256).inserted {
            let issuing = ChainCertificate(depth: 1, subject: c.chain.issuerSubject, issuer: anchor?.subject ?? "",
                                           notBefore: .distantPast, notAfter: .distantFuture,
                                           spkiSHA256: c.chain.issuerSPKISHA256.base64, certSHA256: c.chain.issuerSHA256.base64, isCA: true)
            issuers.append(IssuerOption(name: c.chain.issuerName, chain: [issuing] + (anchor.map { [$0] } ?? [])))
        }
        let reused = summary.flatMap { $0.renewals > 0 ? $0.lastKeyReused : nil }
        return ObservedRenewals(lastKeyReused: reused, issuers: issuers)
    }
}
