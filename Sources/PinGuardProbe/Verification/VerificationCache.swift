import Foundation
import PinGuardCrypto

/// The results of chain verifications of one trust store, by served chain, so that a chain served again
/// is not verified again: the handshake still runs in full, and OpenSSL is handed the earlier result and
/// chain in place of a new `X509_verify_cert`. A chain that verified for one name is judged for another
/// by the host check alone, the one step of OpenSSL's verification that reads the name.
///
/// An entry holds until the first validity boundary of its certificates or of any trust store certificate
/// (a root becoming valid or expiring can change any chain), whichever comes first. A new trust store is
/// a new prober with a new cache. Bounded by `budget` (131,072 entries, 32 MiB; an entry holds the checked
/// names and the chain's links, the certificates stay the handshake's and the store's). Thread-safe.
package final class VerificationCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [VerificationKey: VerificationOutcome] = [:]
    /// Every notBefore and notAfter of the trust store's certificates, in order: no entry outlives the
    /// first one after its verification.
    private let storeBoundaries: [Date]
    private var counts = (hits: 0, misses: 0)
    /// Entries or bytes beyond it drop the expired entries, and the rest if that is not enough.
    private var budget: CacheBudget
    /// Entries at most.
    package var capacity: Int { budget.maxEntries }
    /// The time the entries are judged at.
    let now: @Sendable () -> Date

    /// An empty cache for a trust store whose certificates change validity at `storeBoundaries`.
    package init(storeBoundaries: [Date], capacity: Int = 1 << 17, maxBytes: Int = 32 << 20,
                 now: @escaping @Sendable () -> Date = { Date() }) {
        self.storeBoundaries = storeBoundaries.sorted()
        self.budget = CacheBudget(maxEntries: capacity, maxBytes: maxBytes)
        self.now = now
    }

    /// How many verifications were answered from the cache, and how many ran.
    package var statistics: (hits: Int, misses: Int) { lock.withLock { counts } }

    /// The outcome stored under `key`, if it still holds at `time`.
    package func outcome(for key: VerificationKey, at time: Date) -> VerificationOutcome? {
        lock.withLock { () -> VerificationOutcome? in
            guard let stored = entries[key] else { return nil }
            guard time < stored.validUntil else {
                entries[key] = nil
                budget.release(cost: stored.cost)
                return nil
            }
            return stored
        }
    }

    /// Counts a verification answered from the cache (`hit`) or run.
    func count(hit: Bool) {
        lock.withLock { if hit { counts.hits += 1 } else { counts.misses += 1 } }
    }

    /// Stores the outcome of a verification run at `time`, unless it no longer holds. It holds no longer than
    /// the trust store did at `time`, however late it is stored.
    package func store(_ outcome: VerificationOutcome, for key: VerificationKey, at time: Date) {
        var outcome = outcome
        outcome.validUntil = min(outcome.validUntil, storeBoundaries.first { $0 > time } ?? .distantFuture)
        guard time < outcome.validUntil else { return }
        lock.withLock {
            if let replaced = entries.removeValue(forKey: key) { budget.release(cost: replaced.cost) }
            guard budget.admit(cost: outcome.cost) || makeRoom(for: outcome, at: time) else { return }
            entries[key] = outcome
        }
    }

    /// Drops the entries expired at `time`, and all of them if that leaves no room, then admits `outcome`;
    /// false for an outcome too large for the budget on its own. Called under the lock.
    private func makeRoom(for outcome: VerificationOutcome, at time: Date) -> Bool {
        entries = entries.filter { time < $0.value.validUntil }
        budget.reset()
        for kept in entries.values where !budget.admit(cost: kept.cost) {
            entries.removeAll(keepingCapacity: true)
            budget.reset()
            break
        }
        if budget.admit(cost: outcome.cost) { return true }
        entries.removeAll(keepingCapacity: true)
        budget.reset()
        return budget.admit(cost: outcome.cost)
    }

    /// Entries and bytes held.
    package var usage: (entries: Int, bytes: Int) { lock.withLock { (entries.count, budget.bytes) } }
}
