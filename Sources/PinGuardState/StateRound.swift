import PinGuardCore

/// One probing round's view of the store: every observation is classified against what is known and
/// recorded in the store's memory at once; `StateStore.commit(_:)` then writes the changes.
///
/// Observations from several tasks may share one round.
public struct StateRound: Sendable {
    /// The store the round records into.
    public let store: StateStore
    /// The round's time, Unix seconds: first and last seen of what it observes.
    public let now: Int64

    /// Creates a round; see `StateStore.beginRound(now:)`.
    init(store: StateStore, now: Int64) {
        self.store = store
        self.now = now
    }

    /// Classifies `chain`, served by `target` at `address`, against the chains recorded for the target
    /// (see `RenewalClassifier`) and records it: a new chain, a renewal, or the time it was seen again.
    @discardableResult
    public func observe(target: String, address: String, chain: ServedChain) -> RenewalClassification {
        store.record(chain, target: target, address: address, now: now)
    }
}
