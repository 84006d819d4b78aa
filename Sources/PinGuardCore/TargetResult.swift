import Foundation

/// The latest probe of one target and its evaluations: what /metrics and the journal report.
public struct TargetResult: Sendable {
    /// The configured target.
    public var target: Target
    /// What the probe saw.
    public var facts: ProbeFacts
    /// Decisions of every applicable policy set (empty: no set covers the target).
    public var evaluations: [Evaluation]

    /// Creates a result.
    public init(target: Target, facts: ProbeFacts, evaluations: [Evaluation]) {
        self.target = target
        self.facts = facts
        self.evaluations = evaluations
    }

    /// Evaluates `facts` for `target` against `sets` at `now`.
    public static func evaluate(_ facts: ProbeFacts, target: Target, sets: [PolicySet], now: Date) -> TargetResult {
        TargetResult(target: target, facts: facts,
                     evaluations: TargetEvaluation.evaluate(facts, environment: target.environment,
                                                            namedSets: target.policySets, sets: sets, now: now))
    }

    /// Whether every client accepts (false when the probe failed or any rejects).
    public var allAccept: Bool {
        facts.success && evaluations.allSatisfy { $0.verdict == .accept }
    }
}
