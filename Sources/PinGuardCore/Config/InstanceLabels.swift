/// What tells this instance apart from the others running the same configuration (`instance: {replica,
/// vantage}` or `--replica`/`--vantage`): carried by every journal event, so that a central log store can
/// tell the replicas of one shard, and the vantage points, apart. The metrics get the same labels where
/// Prometheus scrapes the instance (docs/prometheus.md, Shards, replicas and vantage points).
public struct InstanceLabels: Sendable, Equatable {
    /// Which replica of its shard this instance is (e.g. `a`, a pod name); empty: not said.
    public var replica = ""
    /// Where this instance probes from (e.g. `eu-west`); empty: not said.
    public var vantage = ""

    /// No labels.
    public init() {}

    /// Labels as given.
    public init(replica: String, vantage: String) {
        self.replica = replica
        self.vantage = vantage
    }

    /// Whether `text` is a usable label value: 1 to 63 letters, digits, `.`, `_` or `-`.
    public static func isValid(_ text: String) -> Bool {
        (1...63).contains(text.utf8.count) && text.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F || c == 0x2D
        }
    }

    /// These labels, with `other`'s non-empty ones in their place (flags over the file).
    public func overridden(by other: InstanceLabels) -> InstanceLabels {
        InstanceLabels(replica: other.replica.isEmpty ? replica : other.replica, vantage: other.vantage.isEmpty ? vantage : other.vantage)
    }

    /// The journal fields for this instance: `PINGUARD_SHARD` (I/N) when sharded, `PINGUARD_REPLICA` and
    /// `PINGUARD_VANTAGE` when given.
    public func journalFields(shard: TargetShard?) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let shard { fields.append(("PINGUARD_SHARD", shard.description)) }
        if !replica.isEmpty { fields.append(("PINGUARD_REPLICA", replica)) }
        if !vantage.isEmpty { fields.append(("PINGUARD_VANTAGE", vantage)) }
        return fields
    }
}
