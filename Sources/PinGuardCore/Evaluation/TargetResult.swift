import Foundation

/// The latest probe of one target and its evaluations: what /metrics and the journal report.
///
/// A target whose name resolves to several addresses has one `NodeResult` per address; `evaluations` is
/// the worst case over them (`WorstCase`), the view a client that may land on any node gets.
public struct TargetResult: Sendable {
    /// The configured target.
    public var target: Target
    /// How the name resolved.
    public var resolution: AddressResolution
    /// One result per probed address, in resolution order (never empty).
    public var nodes: [NodeResult]
    /// Worst-case decisions of every applicable policy set over the nodes (empty: no set covers the target).
    public var evaluations: [Evaluation]
    /// What the next renewal will plausibly bring; nil when not forecast (no chain, or no context).
    public var outlook: RenewalOutlook?
    /// Each set's forecast for the next renewal under `outlook`.
    public var forecasts: [SetForecast] = []

    /// Creates a result from judged nodes; the worst case is computed from them.
    public init(target: Target, resolution: AddressResolution, nodes: [NodeResult]) {
        self.target = target
        self.resolution = resolution
        self.nodes = nodes
        self.evaluations = WorstCase.evaluations(nodes)
    }

    /// Creates a single-address result.
    public init(target: Target, facts: ProbeFacts, evaluations: [Evaluation]) {
        self.init(target: target, resolution: TargetProbe(single: facts).resolution,
                  nodes: [NodeResult(facts: facts, evaluations: evaluations)])
    }

    /// Evaluates every node of `probe` for `target` against `sets` at `now`.
    public static func evaluate(_ probe: TargetProbe, target: Target, sets: [PolicySet], now: Date) -> TargetResult {
        TargetResult(target: target, resolution: probe.resolution, nodes: probe.nodes.map { facts in
            NodeResult(facts: facts, evaluations: TargetEvaluation.evaluate(facts, environment: target.environment,
                                                                            namedSets: target.policySets, sets: sets, now: now))
        })
    }

    /// Judges this result's probe again for `target` by `sets` at `now`, taking the decisions of the sets
    /// named in `unchanged` from this result when the target's environment and named sets are the same; the
    /// forecast is not made again (`Judge.rejudge` does that).
    func rejudged(for target: Target, sets: [PolicySet], unchanged: Set<String>, now: Date) -> TargetResult {
        var result = self
        result.rejudge(for: target, sets: sets, unchanged: unchanged, now: now)
        return result
    }

    /// `rejudged(for:sets:unchanged:now:)` in place: a result nothing else holds keeps its arrays, and
    /// the new decisions are written into them (a reload of 100,000 results then allocates nothing that
    /// outlives it, so the heap is not left with the old results' holes between the new ones); the decisions
    /// `memo` holds for the same inputs are taken from it.
    mutating func rejudge(for target: Target, sets: [PolicySet], unchanged: Set<String>, now: Date, memo: JudgementMemo? = nil) {
        let reusable = !unchanged.isEmpty && target.environment == self.target.environment
            && target.policySets == self.target.policySets
        evaluations = []  // the worst case may share a node's array: let go of it so that one is written in place
        for k in nodes.indices {
            memo?.begin()
            // Through the buffer, the node's facts are lent to the judging, not copied.
            var judged = nodes.withUnsafeBufferPointer { n in
                TargetEvaluation.evaluate(n[k].facts, environment: target.environment, namedSets: target.policySets, sets: sets,
                                          now: now, reuse: reusable ? (n[k].evaluations, unchanged) : nil, memo: memo)
            }
            if judged.count == nodes[k].evaluations.count {
                // Moved in, not copied: a copy would retain and release every field of each decision.
                for j in judged.indices { swap(&nodes[k].evaluations[j], &judged[j]) }
            } else {
                nodes[k].evaluations = judged
            }
            memo?.share(into: &nodes[k].facts)
        }
        self.target = target
        evaluations = WorstCase.evaluations(nodes)
    }

    /// Evaluates a single-address probe.
    public static func evaluate(_ facts: ProbeFacts, target: Target, sets: [PolicySet], now: Date) -> TargetResult {
        evaluate(TargetProbe(single: facts), target: target, sets: sets, now: now)
    }

    /// What was probed, node by node, for judging again under new policies.
    public var probe: TargetProbe {
        var p = TargetProbe(single: nodes[0].facts)
        p.resolution = resolution
        p.nodes = nodes.map(\.facts)
        return p
    }

    /// The probe that stands for the target where one is shown: the worst node's (`WorstCase.representative`).
    public var facts: ProbeFacts { nodes[WorstCase.representative(nodes)].facts }

    /// When the last node's probe finished.
    public var finishedAt: Date { nodes.lazy.map(\.facts.finishedAt).max() ?? .distantPast }

    /// Whether every node served a chain.
    public var allNodesReached: Bool { nodes.allSatisfy(\.facts.success) }

    /// Whether every client accepts on every node (false when a probe failed or any rejects).
    public var allAccept: Bool {
        allNodesReached && nodes.allSatisfy { $0.evaluations.allSatisfy { $0.verdict == .accept } }
    }
}
