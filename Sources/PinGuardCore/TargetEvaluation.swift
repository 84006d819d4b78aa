import Foundation

/// Evaluates one target's probe against the policy sets that apply to it (docs/reference.md, Evaluation).
public enum TargetEvaluation {
    /// The evaluations for `facts`: against the sets the target names (a named set with no policy for
    /// the host gives `policy_missing`), or else against every set that covers the host. An empty result
    /// means no set covers the target.
    public static func evaluate(_ facts: ProbeFacts, environment: String, namedSets: [String]?,
                                sets: [PolicySet], now: Date) -> [Evaluation] {
        if let namedSets {
            let byName = Dictionary(sets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            return namedSets.compactMap { name in
                byName[name].flatMap { Evaluator.evaluate(facts, policySet: $0, environment: environment, named: true, now: now) }
            }
        }
        return sets.compactMap { Evaluator.evaluate(facts, policySet: $0, environment: environment, named: false, now: now) }
    }
}
