import Foundation
import PinGuardCore

/// Fetched documents kept in memory, for a service with no state file: the same bounds as the state
/// store's table (`FetchedDocumentBounds`), the least recently fetched dropped first.
public final class MemoryDocumentStore: FetchedDocumentStore, @unchecked Sendable {
    private let lock = NSLock()
    private var documents: [String: CachedDocument] = [:]

    /// An empty store.
    public init() {}

    /// The last good copy of `url`, if any.
    public func document(url: String) -> CachedDocument? {
        lock.lock()
        defer { lock.unlock() }
        return documents[url]
    }

    /// Keeps `document`, replacing an older copy of the same URL; a document over the bounds is not kept.
    public func keep(_ document: CachedDocument) {
        guard document.url.utf8.count <= FetchedDocumentBounds.maxURLBytes,
              FetchedDocumentBounds.isSound(document, for: document.url) else { return }
        lock.lock()
        defer { lock.unlock() }
        documents[document.url] = document
        var total = documents.values.reduce(0) { $0 + $1.body.count }
        for oldest in documents.values.sorted(by: { $0.fetchedAt < $1.fetchedAt }) {
            guard documents.count > FetchedDocumentBounds.maxDocuments || total > FetchedDocumentBounds.maxTotalBytes else { break }
            documents[oldest.url] = nil
            total -= oldest.body.count
        }
    }
}
