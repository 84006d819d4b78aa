/// One slice of the targets, so N replicas of one configuration split the work: a target belongs to shard
/// `index` of `total` when the 64-bit hash of its name modulo `total` is `index` — the rule of Prometheus'
/// `hashmod` relabelling (the last 8 bytes of the name's MD5, big-endian), so a scrape config can select
/// the same slices.
public struct TargetShard: Sendable, Equatable, CustomStringConvertible {
    /// This instance's shard, 0-based.
    public var index: Int
    /// Number of shards.
    public var total: Int

    /// A shard; nil unless `0 <= index < total`.
    public init?(index: Int, total: Int) {
        guard total >= 1, index >= 0, index < total else { return nil }
        self.index = index
        self.total = total
    }

    /// Parses `I/N` (e.g. `0/3`; a StatefulSet ordinal fits I).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: i, total: n)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(total)" }

    /// Whether a target whose name hashes to `hash` belongs to this shard.
    public func includes(hash: UInt64) -> Bool { hash % UInt64(total) == UInt64(index) }

    /// The targets of this shard, in configuration order; `hash` is the hashmod hash of a target name.
    public func select(_ targets: [Target], hash: (String) -> UInt64) -> [Target] {
        total == 1 ? targets : targets.filter { includes(hash: hash($0.name)) }
    }
}
