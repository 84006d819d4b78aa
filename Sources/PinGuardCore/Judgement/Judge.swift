import Foundation

/// Where a judgement gets a result's renewal outlook: the service from its configuration (`renewal`,
/// `issuer_pools`, the issuer catalog), the staged chains of `files:` and the memory of served chains as it
/// stands after this round's observation; `probe` and `plan` from their flags and the bundled catalog.
public protocol RenewalOutlookSource: Sendable {
    /// The outlook of `result`'s next renewal; nil when it served no chain.
    func outlook(for result: TargetResult) -> RenewalOutlook?
}

/// The one judgement: probe facts, the target, the loaded policy sets, the CT settings, the renewal outlook
/// and `now` in; the complete result out (each address's decisions with their CT verdicts, the worst case,
/// the forecast of each set). Every place that judges calls it, and re-judging stored facts after a reload is
/// the same call (`rejudge`), so the parts can never drift apart.
public struct Judge: Sendable {
    /// The policy sets in force.
    public var sets: [PolicySet]
    /// The CT settings the facts' SCTs are judged with; nil: the facts' CT verdicts are taken as they are.
    public var ct: CTSettings?
    /// Where the forecast's outlook comes from; nil: no forecast (a certificate file of `files:`).
    public var renewals: (any RenewalOutlookSource)?

    /// A judgement by `sets`, with `ct` and `renewals` when given.
    public init(sets: [PolicySet], ct: CTSettings? = nil, renewals: (any RenewalOutlookSource)? = nil) {
        self.sets = sets
        self.ct = ct
        self.renewals = renewals
    }

    /// The result of `probe` for `target` at `now`.
    public func judge(_ probe: TargetProbe, target: Target, now: Date) -> TargetResult {
        let probe = ct.map { $0.judged(probe, now: now) } ?? probe
        var result = TargetResult.evaluate(probe, target: target, sets: sets, now: now)
        forecast(&result)
        return result
    }

    /// The result of a single-address probe (a certificate file, a candidate chain).
    public func judge(_ facts: ProbeFacts, target: Target, now: Date) -> TargetResult {
        judge(TargetProbe(single: facts), target: target, now: now)
    }

    /// `result`'s stored facts judged again for `target` at `now`, in place, as `judge` would judge them: the
    /// decisions of the sets in `what.unchanged` are kept when the target's environment and named sets are the
    /// same, the SCTs are judged again when the log lists changed, and the forecast is made again from this
    /// judgement's outlook when what the outlook reads changed (`renewal`, `issuer_pools`, the catalog, the
    /// target's own `renewal`), else under the outlook the result has for the sets whose policies changed, when
    /// the policies changed (an unchanged set's forecast read nothing that changed, so it is kept). The
    /// decisions and forecasts `memo` holds for the same inputs (made by this judgement at `now`) are taken
    /// from it, and those made are put in it.
    ///
    /// - Parameter samePolicy: `samePolicy(result, among: what.alike)` when the caller has it already.
    public func rejudge(_ result: inout TargetResult, for target: Target, _ what: Rejudging, now: Date, memo: JudgementMemo? = nil,
                        samePolicy known: Set<String>? = nil) {
        if what.ctChanged, let ct { result.rejudgeCT(ct, now: now) }
        let remake = what.outlookChanged || target.renewal != result.target.renewal || result.outlook == nil
        // A set's decisions and forecast are kept only while the target is judged in the same environment by
        // the same named sets, and the SCTs were not judged again.
        let sameTarget = target.environment == result.target.environment && target.policySets == result.target.policySets
        let kept = what.ctChanged || !sameTarget ? [] : what.unchanged.union(known ?? samePolicy(result, among: what.alike))
        result.rejudge(for: target, sets: sets, unchanged: kept, now: now, memo: memo)
        if remake {
            forecast(&result, memo: memo)
        } else if what.policiesChanged {
            result.reforecast(sets: sets, keeping: kept, memo: memo)
        }
    }

    /// The sets named in `names` whose policy for the result's host is the one its decisions were made under
    /// (the same rule, or none in both): an edit of another host's policy changed nothing they read.
    public func samePolicy(_ result: TargetResult, among names: Set<String>) -> Set<String> {
        guard !names.isEmpty, !result.nodes.isEmpty else { return [] }
        // The host and the decisions alone, and the sets by index: a closure would hold a copy of the result, and
        // a copy of a node or a set retains each of its fields.
        let (host, decisions, environment) = (result.nodes[0].facts.host, result.nodes[0].evaluations, result.target.environment)
        var same = Set<String>()
        for k in sets.indices where names.contains(sets[k].name) && Self.keepsPolicy(host, decisions, of: sets[k], environment: environment) {
            same.insert(sets[k].name)
        }
        return same
    }

    /// Whether `set` selects for `host` the rule and policy of its decision among `decisions` (one node's).
    static func keepsPolicy(_ host: String, _ decisions: [Evaluation], of set: PolicySet, environment: String) -> Bool {
        let now = Evaluator.selection(set, environment: environment, host: host)
        guard let k = decisions.firstIndex(where: { $0.policySet == set.name }) else { return now == nil }
        return decisions[k].pattern == now?.pattern && decisions[k].policy == now?.policy
    }

    /// Forecasts `result`'s next renewal from `renewals`' outlook (none without a source); `memo` as in
    /// `rejudge`.
    public func forecast(_ result: inout TargetResult, memo: JudgementMemo? = nil) {
        guard let renewals else {
            if result.outlook != nil { result.forecast(with: nil, sets: sets) }
            return
        }
        result.forecast(with: renewals.outlook(for: result), sets: sets, memo: memo)
    }
}

extension TargetResult {
    /// Each address's SCTs judged again with `ct` at `now` (new log lists).
    mutating func rejudgeCT(_ ct: CTSettings, now: Date) {
        for k in nodes.indices where nodes[k].facts.ct.collected { nodes[k].facts = ct.judged(nodes[k].facts, now: now) }
    }
}

/// What changed between the judgement a stored result had and the one it is judged by again.
public struct Rejudging: Sendable, Equatable {
    /// Sets whose policies are the same: their decisions are kept.
    public var unchanged: Set<String>
    /// Whether any policy set changed, came or went.
    public var policiesChanged: Bool
    /// Whether what the outlook reads changed (`renewal`, `issuer_pools`, the issuer catalog).
    public var outlookChanged: Bool
    /// Whether the CT settings (log lists, public roots) changed.
    public var ctChanged: Bool
    /// Sets whose edits are all in their host policies (`PolicySet.judgesHostsLike`): a target whose host has
    /// the same policy in them as before keeps their decisions too.
    public var alike: Set<String>

    /// A description of a reload.
    public init(unchanged: Set<String>, policiesChanged: Bool, outlookChanged: Bool, ctChanged: Bool, alike: Set<String> = []) {
        self.unchanged = unchanged
        self.policiesChanged = policiesChanged
        self.outlookChanged = outlookChanged
        self.ctChanged = ctChanged
        self.alike = alike
    }
}
