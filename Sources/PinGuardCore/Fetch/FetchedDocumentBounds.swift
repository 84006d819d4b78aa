/// How much a `FetchedDocumentStore` keeps, and what a document read back must look like to be used.
public enum FetchedDocumentBounds {
    /// The most documents kept; the least recently fetched go first.
    public static let maxDocuments = 512
    /// The most bytes of bodies kept in all; the least recently fetched go first.
    public static let maxTotalBytes = 96 * 1024 * 1024
    /// The longest URL kept.
    public static let maxURLBytes = 2048

    /// Whether `document`, read back from a store, may be used for `url`: the same URL, a body no larger
    /// than the largest purpose allows, and times that are finite, after 1970 and in order.
    public static func isSound(_ document: CachedDocument, for url: String) -> Bool {
        let largest = FetchPurpose.allCases.map(\.maxBytes).max() ?? 0
        return document.url == url && document.body.count <= largest
            && document.fetchedAt.isFinite && document.freshUntil.isFinite
            && document.fetchedAt >= 0 && document.freshUntil >= document.fetchedAt
            && document.freshUntil < 32_503_680_000
    }
}
