import Foundation

/// The results of chain verifications of one trust store, by served chain, so that a chain served again
/// is not verified again: the handshake still runs in full, and OpenSSL is handed the earlier result and
/// chain in place of a new `X509_verify_cert`. A chain that verified for one name is judged for another
/// by the host check alone, the one step of OpenSSL's verification that reads the name.
///
/// An entry holds until the first validity boundary of its certificates or of any trust store certificate
/// (a root becoming valid or expiring can change any chain), whichever comes first. A new trust store is
/// a new prober with a new cache. Thread-safe.
package final class VerificationCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [VerificationKey: VerificationOutcome] = [:]
    /// Every notBefore and notAfter of the trust store's certificates, in order: no entry outlives the
    /// first one after its verification.
    private let storeBoundaries: [Date]
    private var counts = (hits: 0, misses: 0)
    /// Entries beyond this drop the expired ones, and the rest if that is not enough.
    package let capacity: Int
    /// The time the entries are judged at.
    let now: @Sendable () -> Date

    /// An empty cache for a trust store whose certificates change validity at `storeBoundaries`.
    package init(storeBoundaries: [Date], capacity: Int = 1 << 17, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storeBoundaries = storeBoundaries.sorted()
        self.capacity = capacity
        self.now = now
    }

    /// How many verifications were answered from the cache, and how many ran.
    package var statistics: (hits: Int, misses: Int) { lock.withLock { counts } }

    /// The outcome stored under `key`, if it still holds at `time`.
    package func outcome(for key: VerificationKey, at time: Date) -> VerificationOutcome? {
        lock.withLock {
            guard let stored = entries[key] else { return nil }
            guard time < stored.validUntil else {
                entries[key] = nil
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
            if entries.count >= capacity {
                entries = entries.filter { time < $0.value.validUntil }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = outcome
        }
    }
}
