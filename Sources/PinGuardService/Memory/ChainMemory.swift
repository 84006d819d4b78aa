import Foundation
import NIOConcurrencyHelpers
import PinGuardConfig
import PinGuardCore
import PinGuardFetch
import PinGuardReaders
import PinGuardState

/// The service's memory of served chains: each probed chain is remembered per target and address, each
/// round's changes are written in one transaction, renewals and rollbacks become journal events, and
/// `facts` is what /metrics reports.
///
/// Faults lose nothing good: a file that is corrupt, foreign or of a newer schema is never touched (the
/// memory runs in memory, `state_unavailable`); a file that cannot be written now (read-only, full disk)
/// keeps the round's changes in memory and is retried every round (`state_recovered` once it works). Only
/// a file another pinguard holds is an error at start (two instances must not share one file). A shared
/// database (`state.url`) must be usable at start, or the start fails; lost later, it is said once and the
/// round's changes wait in memory until it is back.
public final class ChainMemory: Sendable {
    struct State {
        var store: StateStore
        /// The file still to open, when opening it failed in a way that may pass (read-only, disk full).
        var retryPath: String?
        var round: StateRound?
        var writable: Bool
        /// The cause last reported by `state_unavailable`, so that it is reported once.
        var failure: String?
        /// The kind of that cause.
        var failureCode: StateError.Code?
        /// The targets with something to report (`TargetMemoryFacts.isReported`): at 100,000 targets that never
        /// renewed while watched, none are held.
        var targets: [String: TargetMemoryFacts] = [:]
        var configured: Set<String>
        var version: UInt64 = 1
        var facts: ChainMemoryFacts?
    }

    /// Where the memory lives.
    public let location: StateLocation
    let state: NIOLockedValueBox<State>
    /// Events of opening the memory (`state_not_persisted`, `state_unavailable`), for the service to write
    /// once the journal is up.
    public let startEvents: [JournalEntry]
    /// Fetched documents while there is no writable state file: one store for the memory's life, so every
    /// client of `documents` sees what the others kept.
    let documentsInMemory = MemoryDocumentStore()

    /// Opens the memory at `location` for the `configured` targets; throws only when another pinguard holds
    /// the file, or when the shared database cannot be used at start (unreachable, refused). From a shared
    /// database only the targets `keep` accepts are loaded (this instance's shard).
    public convenience init(location: StateLocation, configured: Set<String>,
                            keep: (String) -> Bool = { _ in true }) throws(StateError) {
        if case .database(let url) = location {
            let store = try StateStore.open(database: url, readOnly: false, keep: keep)
            self.init(location: location, opened: Opened(store: store, writable: true), configured: configured)
            return
        }
        guard case .file(let path) = location else {
            self.init(location: location, opened: Opened(store: .inMemory()), configured: configured)
            return
        }
        do throws(StateError) {
            let store = try StateStore.open(path: path, readOnly: false)
            self.init(location: location, opened: Opened(store: store, writable: true), configured: configured)
        } catch {
            if error.code == .locked { throw error }
            let opened = Opened(store: .inMemory(), retryPath: Self.mayPass(error.code) ? path : nil, failure: error.message)
            self.init(location: location, opened: opened, configured: configured)
        }
    }

    /// Why the state file is not in use now (it could not be opened, or is refused), as `state_unavailable`
    /// named it; nil when the file is in use or there is none.
    public var unavailableCause: String? {
        state.withLockedValue { s in
            guard case .file = location, s.store.path == nil else { return nil }
            return s.failure
        }
    }

    /// A memory that writes nothing (`state_not_persisted` says why).
    public convenience init(memoryOnly reason: String, configured: Set<String>) {
        self.init(location: .memoryOnly(reason: reason), opened: Opened(store: .inMemory()), configured: configured)
    }

    /// What opening the location gave.
    struct Opened {
        var store: StateStore
        var retryPath: String?
        var writable = false
        var failure: String?
        /// The kind of that cause.
        var failureCode: StateError.Code?
    }

    private init(location: StateLocation, opened: Opened, configured: Set<String>) {
        self.location = location
        switch location {
        case .memoryOnly(let reason): startEvents = [.stateNotPersisted(reason)]
        case .file(let path): startEvents = opened.failure.map { [.stateUnavailable(path: path, error: $0)] } ?? []
        case .database: startEvents = []
        }
        var s = State(store: opened.store, retryPath: opened.retryPath, writable: opened.writable, failure: opened.failure,
                      configured: configured)
        Self.seed(&s)
        state = NIOLockedValueBox(s)
    }

    /// Whether a failure to open or write may pass by itself (the file is not touched in the other cases).
    static func mayPass(_ code: StateError.Code) -> Bool {
        code == .readOnly || code == .diskFull || code == .ioError || code == .notFound
    }

    /// Fills the metrics facts of the configured targets from what the store remembers.
    static func seed(_ s: inout State) {
        for name in s.store.targetNames where s.configured.contains(name) {
            let history = s.store.history(target: name)
            let ages = Set(history.map(\.address)).sorted().compactMap { keptKeyAge(s.store, target: name, address: $0) }
            let facts = TargetMemoryFacts(target: name, renewals: s.store.renewalSummary(target: name) ?? RenewalSummary(),
                                          keyFirstSeen: ages)
            if facts.isReported { s.targets[name] = facts }
        }
        s.version += 1
        s.facts = nil
    }

    /// Since when `address` has served its current leaf key, when the key outlived a leaf there (kept across a
    /// renewal): the notBefore of the first leaf pinguard saw with it there (or when it first saw it, if
    /// earlier). nil when the key came with the leaf served now, whose notBefore
    /// (`pinguard_cert_not_before_timestamp_seconds`) is then the same definition, so 100,000 targets that
    /// never kept a key add no series and the age does not jump at a renewal.
    static func keptKeyAge(_ store: StateStore, target: String, address: String) -> AddressKeyAge? {
        guard let latest = store.latest(target: target, address: address),
              latest.keyFirstSeen < min(latest.firstSeen, latest.chain.notBefore) else { return nil }
        return AddressKeyAge(address: address, since: latest.keyFirstSeen)
    }
}
