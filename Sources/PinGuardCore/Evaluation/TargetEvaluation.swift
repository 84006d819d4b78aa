import Foundation

/// Evaluates one target's probe against the policy sets that apply to it (docs/reference.md, Evaluation).
public enum TargetEvaluation {
    /// The evaluations for `facts`: against the sets the target names (a named set with no policy for
    /// the host gives `policy_missing`), or else against every set that covers the host. An empty result
    /// means no set covers the target.
    ///
    /// - Parameter reuse: the decisions of the same probe under the same environment and named sets, and
    ///   the names of the sets whose policies are unchanged since: their decisions are taken from there
    ///   (`Evaluation.measured(at:)`) instead of judged again (a reload after a policy edit judges only
    ///   what the edit touched).
    public static func evaluate(_ facts: ProbeFacts, environment: String, namedSets: [String]?,
                                sets: [PolicySet], now: Date,
                                reuse: (previous: [Evaluation], unchanged: Set<String>)? = nil) -> [Evaluation] {
        func judge(_ set: PolicySet, named: Bool) -> Evaluation? {
            if let reuse, reuse.unchanged.contains(set.name) {
                return reuse.previous.first { $0.policySet == set.name }?.measured(at: now)
            }
            return ClientPathEvaluator.evaluate(facts, policySet: set, environment: environment, named: named, now: now)
        }
        if let namedSets {
            let byName = Dictionary(sets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            return namedSets.compactMap { name in byName[name].flatMap { judge($0, named: true) } }
        }
        return sets.compactMap { judge($0, named: false) }
    }
}
