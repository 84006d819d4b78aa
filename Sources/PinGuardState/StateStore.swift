import Foundation
import PinGuardCore

/// pinguard's memory of every chain each target served, kept in an SQLite file (or a PostgreSQL database
/// shared by several instances, `Database/`) across restarts so that renewals (key kept or rotated, issuer
/// changed) can be observed.
///
/// Everything is loaded into memory at open; observations are classified and recorded in memory at once
/// (`beginRound(now:)`, `StateRound.observe`), and `commit(_:)` writes what changed in one transaction.
/// A commit that fails (read-only file, full disk) leaves the memory intact and keeps the changes, which
/// the next successful commit writes. All methods may be called from any thread.
public final class StateStore: @unchecked Sendable {
    /// The state file; nil for a store that lives only in memory.
    public let path: String?
    /// Whether the store was opened read-only: it takes no lock and never writes.
    public let isReadOnly: Bool
    /// How stale a chain's `last_seen` on disk may get while it is served unchanged, in seconds.
    public let lastSeenGranularity: Int64

    let lock = NSLock()
    /// Every target and chain held; guarded by `lock` (a shared database's adoption adds to it).
    var memory: StateMemory
    private(set) var connection: SQLiteConnection?
    private var fileLock: StateFileLock?
    /// The shared database, when the memory lives there instead of a file (`path` is then its URL without password).
    private(set) var database: StateDatabase?
    private var needsReconnect = false
    private(set) var isClosed = false

    init(path: String?, isReadOnly: Bool, memory: StateMemory, connection: SQLiteConnection?,
         fileLock: StateFileLock?, database: StateDatabase? = nil) {
        self.database = database
        self.path = path
        self.isReadOnly = isReadOnly
        self.lastSeenGranularity = memory.lastSeenGranularity
        self.memory = memory
        self.connection = connection
        self.fileLock = fileLock
    }

    deinit {
        connection = nil
        fileLock = nil
    }

    /// Starts a round at `now` (Unix seconds).
    public func beginRound(now: Int64) -> StateRound {
        StateRound(store: self, now: now)
    }

    /// Writes everything that changed since the last successful commit (this round's observations, and
    /// any earlier round's whose commit failed) in one transaction, and reports what it wrote. Writes
    /// nothing, and opens no transaction, when nothing changed.
    ///
    /// Throws `.readOnly` when the store was opened read-only or the file or its directory cannot be
    /// written now, `.diskFull` when the disk is full, `.closed` after `close()`; the changes are kept.
    @discardableResult
    public func commit(_ round: StateRound) throws(StateError) -> StateCommit {
        precondition(round.store === self, "a round is committed to the store that began it")
        lock.lock()
        defer { lock.unlock() }
        let pending = memory.pending
        guard !isClosed else { throw StateError(.closed, path: path ?? ":memory:", cause: "the store is closed") }
        guard !isReadOnly else {
            throw StateError(.readOnly, path: path ?? "", cause: "the store was opened read-only")
        }
        guard !pending.isEmpty else {
            // A round that changed nothing still finds out whether the shared database is there, so that losing
            // it is said while it is lost, not at the next renewal.
            try database?.ping()
            return pending
        }
        if let database { try database.write(memory) } else if let path { try write(to: path) }
        memory.markWritten()
        return pending
    }

    /// Records one observation; see `StateRound.observe`.
    func record(_ chain: ServedChain, target: String, address: String, now: Int64) -> RenewalClassification {
        lock.lock()
        defer { lock.unlock() }
        return memory.observe(chain, target: target, address: address, now: now)
    }

    /// The chain `target` serves now at `address` (the one seen there most recently); nil if none recorded.
    public func latest(target: String, address: String) -> StoredChain? {
        lock.lock()
        defer { lock.unlock() }
        guard let chains = memory[target]?.chains,
              let index = RenewalClassifier.latestIndex(at: address, in: chains) else { return nil }
        return chains[index]
    }

    /// Every chain recorded for `target`, all addresses, oldest first (in the order first seen); each
    /// chain's `arrival` marks the renewals. Empty for an unknown target.
    public func history(target: String) -> [StoredChain] {
        lock.lock()
        defer { lock.unlock() }
        return memory[target]?.chains ?? []
    }

    /// The renewals observed for `target`; nil for an unknown target.
    public func renewalSummary(target: String) -> RenewalSummary? {
        lock.lock()
        defer { lock.unlock() }
        return memory[target]?.summary
    }

    /// When the key of the leaf `target` serves now at `address` was first seen there (its key age);
    /// nil if nothing is recorded there.
    public func keyFirstSeen(target: String, address: String) -> Int64? {
        latest(target: target, address: address)?.keyFirstSeen
    }

    /// The names of all recorded targets, sorted.
    public var targetNames: [String] {
        lock.lock()
        defer { lock.unlock() }
        return memory.names.sorted()
    }

    /// Whether anything recorded is not yet in the file (a commit failed, or none was made since).
    public var hasPendingChanges: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !memory.pending.isEmpty
    }

    /// Deletes the targets not in `configuredTargets` whose last configured time is more than `retention`
    /// seconds before `now`, and refreshes the configured time of those in it (in the file at most once
    /// per `lastSeenGranularity`). Returns the deleted names, sorted; the next commit writes the changes.
    @discardableResult
    public func prune(configuredTargets: Set<String>, now: Int64, retention: Int64 = 30 * 86_400) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return memory.prune(configured: configuredTargets, now: now, retention: retention)
    }

    /// Closes the file and releases the writer's lock; reads keep answering from memory, commits throw
    /// `.closed`. Uncommitted changes are dropped.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        isClosed = true
        connection = nil
        fileLock = nil
        database?.close()
        database = nil
    }

    /// Writes the pending changes to the file, reconnecting first if the connection was opened while the
    /// file could not be written, or a write failed for that reason.
    private func write(to path: String) throws(StateError) {
        try Self.checkWritable(path)
        if connection == nil || needsReconnect || connection?.isReadOnly == true {
            connection = nil
            connection = try Self.reconnect(path)
            needsReconnect = false
        }
        guard let connection else { return }
        do {
            try StateWriter(connection).write(memory)
            // The pages the write cached (up to `cache_size`, 8 MiB) serve no reader: a steady round writes
            // nothing, and the next write reads what it needs. Hand them back until then.
            try? connection.execute("PRAGMA shrink_memory")
        } catch {
            let failure = StateError(error, path: path, doing: "writing")
            needsReconnect = failure.code != .diskFull
            throw failure
        }
    }
}
