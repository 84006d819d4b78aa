/// The bounds of one of the prober's caches, in entries and in bytes: a cache that would go over either
/// starts over. Each cache states what an entry costs (its key, its value and the table's own share), so
/// that a server sending large or ever-new certificates or SCTs can fill a cache but never grow it past
/// `maxBytes`. Not thread-safe: the cache's own lock guards it.
package struct CacheBudget: Sendable {
    /// Entries at most.
    package let maxEntries: Int
    /// Bytes at most, as the entries' costs add up.
    package let maxBytes: Int
    /// Entries held now.
    package private(set) var entries = 0
    /// Bytes held now.
    package private(set) var bytes = 0

    /// A budget of `maxEntries` entries and `maxBytes` bytes.
    package init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// Counts a new entry of `cost` bytes; returns false, counting nothing, when the cache must be emptied
    /// first (`reset()`), because it holds as many entries or as many bytes as it may.
    package mutating func admit(cost: Int) -> Bool {
        guard entries < maxEntries, bytes + cost <= maxBytes else { return false }
        entries += 1
        bytes += cost
        return true
    }

    /// An entry of `cost` bytes left the cache.
    package mutating func release(cost: Int) {
        entries = max(entries - 1, 0)
        bytes = max(bytes - cost, 0)
    }

    /// The cache was emptied.
    package mutating func reset() {
        entries = 0
        bytes = 0
    }
}
