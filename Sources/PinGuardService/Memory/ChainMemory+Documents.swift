import PinGuardCore
import PinGuardState

/// Fetched documents (the log lists given by URL) are kept in the same state file as the served chains
/// (`StateStore`'s `fetched_document` table); without a writable file nothing is kept across restarts.
extension ChainMemory: FetchedDocumentStore {
    /// The last good copy of `url` in the state file, if any.
    public func document(url: String) -> CachedDocument? {
        state.withLockedValue { $0.store }.document(url: url)
    }

    /// Keeps `document` in the state file.
    public func keep(_ document: CachedDocument) {
        state.withLockedValue { $0.store }.keep(document)
    }
}
