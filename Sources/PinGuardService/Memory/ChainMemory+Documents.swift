import PinGuardCore
import PinGuardFetch
import PinGuardState

extension ChainMemory {
    /// Where fetched documents are kept: the state file while it is in use, else memory.
    public var documents: any FetchedDocumentStore { MemoryDocuments(memory: self, fallback: documentsInMemory) }
}

/// Fetched documents in the memory's state file (the store in use at each call: a file reopened after a
/// failure is used again), falling back to memory while there is no writable file.
struct MemoryDocuments: FetchedDocumentStore {
    let memory: ChainMemory
    let fallback: MemoryDocumentStore

    func document(url: String) -> CachedDocument? {
        let store = memory.state.withLockedValue { $0.store }
        return store.path == nil ? fallback.document(url: url) : store.document(url: url) ?? fallback.document(url: url)
    }

    func keep(_ document: CachedDocument) {
        let store = memory.state.withLockedValue { $0.store }
        if store.path == nil { fallback.keep(document) } else { store.keep(document) }
    }
}
