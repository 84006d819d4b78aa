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
    /// - Parameter memo: decisions made at `now` for other targets, to take the same one from
    ///   (`JudgementMemo`).
    public static func evaluate(_ facts: ProbeFacts, environment: String, namedSets: [String]?,
                                sets: [PolicySet], now: Date,
                                reuse: (previous: [Evaluation], unchanged: Set<String>)? = nil,
                                memo: JudgementMemo? = nil) -> [Evaluation] {
        // Plain loops, no closure: a closure would hold a copy of the facts (every field retained) per target.
        var out: [Evaluation] = []
        if let namedSets {
            out.reserveCapacity(namedSets.count)
            for name in namedSets {
                guard let k = sets.firstIndex(where: { $0.name == name }),
                      let e = judge(facts, sets[k], named: true, environment: environment, now: now, reuse: reuse,
                                    memo: memo) else { continue }
                out.append(e)
            }
            return out
        }
        out.reserveCapacity(sets.count)
        for k in sets.indices {
            if let e = judge(facts, sets[k], named: false, environment: environment, now: now, reuse: reuse, memo: memo) { out.append(e) }
        }
        return out
    }

    /// One set's decision: the earlier one, measured at `now`, when `reuse` names the set unchanged; else the
    /// one `memo` holds for the same inputs, or a new one.
    static func judge(_ facts: ProbeFacts, _ set: PolicySet, named: Bool, environment: String, now: Date,
                      reuse: (previous: [Evaluation], unchanged: Set<String>)?, memo: JudgementMemo?) -> Evaluation? {
        if let reuse, reuse.unchanged.contains(set.name) {
            return reuse.previous.first { $0.policySet == set.name }?.measured(at: now)
        }
        guard let memo else { return ClientPathEvaluator.evaluate(facts, policySet: set, environment: environment, named: named, now: now) }
        let selected = Evaluator.selection(set, environment: environment, host: facts.host)
        if selected == nil && !named { return nil }
        let inputs = JudgementMemo.Inputs(set: set.name, environment: environment, named: named, selected: selected)
        if let known = memo.decision(facts, inputs) { return known }
        let e = ClientPathEvaluator.evaluate(facts, policySet: set, selected: selected, environment: environment, named: named, now: now)
        memo.remember(facts, inputs, evaluation: e)
        return e
    }
}
