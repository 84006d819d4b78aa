import Foundation

/// The per-target view of a target served by several addresses: what the worst address a client may land
/// on means for it (docs/reference.md, Every address of a name).
public enum WorstCase {
    /// One evaluation per (policy set, environment), combined over the nodes that served a chain: the verdict
    /// and reason of the worst node (a reject anywhere is the target's reject; among accepts, one that only a
    /// fallback or a permissive policy allows is worse than a pin match), the earliest expiry, the
    /// nearest pin horizon and the fewest reserve pins of any node. When no node served a chain, the first
    /// node's evaluations (probe failed) stand.
    public static func evaluations(_ nodes: [NodeResult]) -> [Evaluation] {
        // Most targets have one address, or one that served a chain: its evaluations, with no node copied.
        guard let k = nodes.firstIndex(where: \.facts.success) else { return nodes.first?.evaluations ?? [] }
        if !nodes[(k + 1)...].contains(where: \.facts.success) { return nodes[k].evaluations }
        let judged = nodes.filter(\.facts.success)
        let first = judged[0]
        return first.evaluations.map { base in
            let same = judged.compactMap { n in
                n.evaluations.first { $0.policySet == base.policySet && $0.environment == base.environment }
            }
            var worst = same.reduce(base) { rank($1) > rank($0) ? $1 : $0 }
            worst.earliestExpiry = same.compactMap(\.earliestExpiry).min()
            worst.daysToExpiry = same.compactMap(\.daysToExpiry).min()
            worst.pinHorizon = same.compactMap(\.pinHorizon).min()
            worst.daysToPinBreakage = same.compactMap(\.daysToPinBreakage).min()
            if let fewest = same.filter(\.isEvaluated).min(by: { $0.reservePins.count < $1.reservePins.count }) {
                worst.reservePins = fewest.reservePins
            }
            return worst
        }
    }

    /// Index of the node that stands for the target where one probe is shown: the highest `severity`,
    /// the first on ties.
    public static func representative(_ nodes: [NodeResult]) -> Int {
        var best = 0
        for (i, n) in nodes.enumerated() where n.severity > nodes[best].severity { best = i }
        return best
    }

    /// Number of distinct chains (by the served certificates) among the nodes that served one.
    public static func distinctChains(_ nodes: [NodeResult]) -> Int {
        Set(nodes.filter(\.facts.success).map(chainKey)).count
    }

    /// Identity of a node's served chain: its certificate hashes in order.
    public static func chainKey(_ node: NodeResult) -> String {
        node.facts.servedChain.map(\.certSHA256).joined(separator: ",")
    }

    /// Worse evaluations rank higher: by verdict (reject, no verdict, accept), then by how much the reason
    /// leans on tolerance (a fallback or permissive accept over an unenforced policy over a pin match).
    static func rank(_ e: Evaluation) -> Int {
        let verdict: Int
        switch e.verdict {
        case .reject: verdict = 2
        case .none: verdict = 1
        case .accept: verdict = 0
        }
        let reason: Int
        switch e.reason {
        case .pinMatch: reason = 0
        case .pinSetEmpty, .pinSetExpired, .policyMissing: reason = 1
        case .pinMismatchAllowedByFallback, .pinMismatchPermissive, .systemTrustFailedPermissive: reason = 2
        case .pinMismatch, .systemTrustFailed, .probeFailed, .ctNotCompliant: reason = 3
        }
        return verdict * 10 + reason
    }
}
