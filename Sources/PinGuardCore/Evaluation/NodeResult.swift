/// One address of a target: what its probe saw and how every applicable policy set judged it.
public struct NodeResult: Sendable {
    /// The probe of this address (`facts.address` names it; nil when the name did not resolve).
    public var facts: ProbeFacts
    /// Decisions of every applicable policy set on this address's chain.
    public var evaluations: [Evaluation]

    /// Creates a node result.
    public init(facts: ProbeFacts, evaluations: [Evaluation]) {
        self.facts = facts
        self.evaluations = evaluations
    }

    /// The `address` label value: `ip:port`, or "" when no address was dialled.
    public var address: String { facts.address ?? "" }

    /// How bad this node is for a client landing on it: 3 a reject, 2 no verdict, 1 a failed probe, 0 all accept.
    ///
    /// A node that cannot be reached ranks below one that is reached and judged: a client that cannot connect
    /// tries the next address, while one that gets a rejected chain fails.
    public var severity: Int {
        guard facts.success else { return 1 }
        if evaluations.contains(where: { $0.verdict == .reject }) { return 3 }
        if evaluations.contains(where: { $0.verdict == .none }) { return 2 }
        return 0
    }
}
