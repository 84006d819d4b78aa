import PinGuardCore

/// What one commit wrote: rows inserted, updated and deleted. A steady round (every target serving the
/// chain it served before) writes nothing but the `last_seen` of chains whose time on disk became older
/// than the store's `lastSeenGranularity`.
public struct StateCommit: Hashable, Sendable {
    /// Target rows inserted or updated (new targets, renewals, configured-time refreshes).
    public var targetsWritten = 0
    /// Target rows deleted by retention, with their chains.
    public var targetsDeleted = 0
    /// Chain rows inserted (chains never seen at their address before).
    public var chainsInserted = 0
    /// Chain rows whose `last_seen` was updated.
    public var chainsTouched = 0
    /// Chain rows deleted beyond the per-address cap.
    public var chainsDeleted = 0

    /// Creates a commit report.
    public init(targetsWritten: Int = 0, targetsDeleted: Int = 0, chainsInserted: Int = 0, chainsTouched: Int = 0,
                chainsDeleted: Int = 0) {
        self.targetsWritten = targetsWritten
        self.targetsDeleted = targetsDeleted
        self.chainsInserted = chainsInserted
        self.chainsTouched = chainsTouched
        self.chainsDeleted = chainsDeleted
    }

    /// Whether the commit had nothing to write (and so opened no transaction).
    public var isEmpty: Bool {
        targetsWritten + targetsDeleted + chainsInserted + chainsTouched + chainsDeleted == 0
    }
}
