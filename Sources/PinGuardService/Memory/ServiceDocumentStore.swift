import Foundation
import PinGuardCore
import PinGuardFetch
import PinGuardState

/// Fetched documents kept where the memory of served chains is: in the state file while the memory writes it
/// (so a restart does not fetch again what is still fresh), else in memory for the life of the process.
public final class ServiceDocumentStore: FetchedDocumentStore {
    private let memory: ChainMemory
    private let fallback = MemoryDocumentStore()

    /// A store that follows `memory`'s state file.
    public init(memory: ChainMemory) { self.memory = memory }

    /// The last good copy of `url`: from the state file when it is in use, else from memory.
    public func document(url: String) -> CachedDocument? {
        memory.fileStore?.document(url: url) ?? fallback.document(url: url)
    }

    /// Keeps `document` in the state file when it is in use, else in memory.
    public func keep(_ document: CachedDocument) {
        if let file = memory.fileStore { file.keep(document) } else { fallback.keep(document) }
    }
}

extension ChainMemory {
    /// The state file's store while the memory writes it; nil in memory only or while the file is unavailable.
    var fileStore: StateStore? {
        state.withLockedValue { s in s.writable && s.store.path != nil ? s.store : nil }
    }
}
