import Foundation

/// Judges a policy set on the path its client builds, version by version: one `Evaluator` decision per range
/// of the client's versions whose store gives a path of its own, the set's verdict the worst of them
/// (docs/reference.md, Clients and their stores).
public enum ClientPathEvaluator {
    /// The set's decision on `facts`: on each path its client builds within its versions when the probe
    /// judged that client's paths, else on the probe's one verified chain (`Evaluator.evaluate`).
    public static func evaluate(_ facts: ProbeFacts, policySet: PolicySet, environment: String, named: Bool,
                                now: Date) -> Evaluation? {
        let ranges = paths(of: facts, for: policySet)
        guard !ranges.isEmpty else {
            return Evaluator.evaluate(facts, policySet: policySet, environment: environment, named: named, now: now)
        }
        var worst: Evaluation?
        var verdicts: [VersionVerdict] = []
        for path in ranges {
            var judged = facts
            judged.verifiedChain = path.trusted ? path.chain : []
            judged.trusted = path.trusted
            judged.trustError = path.reason
            guard let e = Evaluator.evaluate(judged, policySet: policySet, environment: environment, named: named,
                                             now: now) else { return nil }
            var v = VersionVerdict(versions: path.versions, chain: path.chain.map(\.certSHA256), anchor: path.anchor,
                                   anchorSubject: path.trusted ? path.chain.last?.subject : nil, verdict: e.verdict,
                                   reason: e.reason, trustError: path.reason)
            v.versionName = facts.clientPaths.versionNames[policySet.client] ?? ""
            v.hazards = path.hazards
            verdicts.append(v)
            if worst.map({ rank(e) > rank($0) }) ?? true { worst = e }
        }
        worst?.paths = merged(verdicts)
        return worst
    }

    /// The paths of the set's client restricted to the set's `client_versions` (else the versions in use);
    /// empty when the probe judged no path for that client.
    static func paths(of facts: ProbeFacts, for set: PolicySet) -> [ClientPath] {
        guard set.client != .none, let all = facts.clientPaths.byClient[set.client], !all.isEmpty else { return [] }
        guard let wanted = set.clientVersions ?? facts.clientPaths.inUse[set.client] else { return all }
        return all.compactMap { path in
            guard let versions = path.versions else { return path }
            guard let shared = versions.intersection(wanted) else { return nil }
            var p = path
            p.versions = shared
            return p
        }
    }

    /// A reject outranks an accept, an accept no decision.
    static func rank(_ e: Evaluation) -> Int {
        switch e.verdict {
        case .reject: 2
        case .accept: 1
        case .none: 0
        }
    }

    /// Neighbouring ranges with the same path and decision as one range.
    static func merged(_ verdicts: [VersionVerdict]) -> [VersionVerdict] {
        var out: [VersionVerdict] = []
        for v in verdicts {
            if let last = out.last, last.agrees(with: v), let a = last.versions, let b = v.versions, a.next == b.lower {
                out[out.count - 1].versions = ClientVersions(lower: a.lower, upper: b.upper)
            } else {
                out.append(v)
            }
        }
        return out
    }
}
