import Foundation

/// Judges a policy set on the path its client builds, version by version: one `Evaluator` decision per range
/// of the client's versions whose store gives a path of its own, the set's verdict the worst of them; and the
/// changes ahead in the client's store that would turn an accept into a reject (docs/reference.md, Clients and
/// their stores). The paths themselves are built in PinGuardCrypto/ClientPaths; the stores are loaded in
/// PinGuardConfig/ClientTrust.
public enum ClientPathEvaluator {
    /// The set's decision on `facts`: on each path its client builds within its versions when the probe
    /// judged that client's paths, else on the probe's one verified chain (`Evaluator.evaluate`).
    public static func evaluate(_ facts: ProbeFacts, policySet: PolicySet, environment: String, named: Bool,
                                now: Date) -> Evaluation? {
        // One lookup of the host's policy for every decision below.
        evaluate(facts, policySet: policySet, selected: Evaluator.selection(policySet, environment: environment, host: facts.host),
                 environment: environment, named: named, now: now)
    }

    /// `evaluate(_:policySet:environment:named:now:)` with the set's policy for the host already `selected`.
    static func evaluate(_ facts: ProbeFacts, policySet: PolicySet, selected: Evaluator.Selection, environment: String,
                         named: Bool, now: Date) -> Evaluation? {
        if selected == nil && !named { return nil }
        // A plain function, not a closure: a closure would hold a copy of the facts (every field retained).
        func judge(_ paths: [ClientPath]) -> [(Evaluation, VersionVerdict)]? {
            judged(paths, facts: facts, set: policySet, selected: selected, environment: environment, named: named, now: now)
        }
        let wanted = versions(of: facts, for: policySet)
        let ranges = restrict(facts.clientPaths.byClient[policySet.client] ?? [], to: wanted)
        guard policySet.client != .none, !ranges.isEmpty else {
            return Evaluator.evaluate(facts, on: Evaluator.Trust(facts), selected: selected, policySet: policySet,
                                      environment: environment, named: named, now: now)
        }
        guard let today = judge(ranges), let w = today.indices.max(by: { WorstCase.rank(today[$0].0) < WorstCase.rank(today[$1].0) })
        else { return nil }
        var worst = today[w].0
        worst.paths = merged(today.map(\.1))
        var breaks: [ClientUpdateBreak] = []
        for u in facts.clientPaths.upcoming[policySet.client] ?? [] {
            let reached = u.change.versions.flatMap { v in wanted.flatMap { v.intersection($0) } ?? v } ?? wanted
            for (e, v) in judge(restrict(u.paths, to: reached)) ?? [] where e.verdict == .reject && accepted(today, at: v.versions) {
                breaks.append(ClientUpdateBreak(client: policySet.client, change: u.change, verdict: v))
            }
        }
        if let upper = wanted?.upper, policySet.clientVersions?.upper == nil {
            // Only paths of versions of their own: one that holds for every version was judged above.
            let later = restrict(facts.clientPaths.byClient[policySet.client] ?? [], to: ClientVersions(lower: upper + 1, upper: nil))
                .filter { $0.versions != nil }
            for (e, v) in later.isEmpty ? [] : judge(later) ?? [] where e.verdict == .reject && v.versions != nil {
                breaks.append(ClientUpdateBreak(client: policySet.client, change: nil, verdict: v))
            }
        }
        if !breaks.isEmpty { worst.clientUpdates = breaks }
        return worst
    }

    /// The set's `client_versions`, else the versions of its client in use.
    static func versions(of facts: ProbeFacts, for set: PolicySet) -> ClientVersions? {
        set.clientVersions ?? facts.clientPaths.inUse[set.client]
    }

    /// `paths` within `wanted` (all of them when nil); a path without versions holds for every version. The
    /// array itself when every path lies within `wanted`, as most do.
    static func restrict(_ paths: [ClientPath], to wanted: ClientVersions?) -> [ClientPath] {
        guard let wanted, paths.contains(where: { $0.versions.map { $0.intersection(wanted) != $0 } ?? false }) else { return paths }
        return paths.compactMap { path in
            guard let versions = path.versions else { return path }
            guard let shared = versions.intersection(wanted) else { return nil }
            var p = path
            p.versions = shared
            return p
        }
    }

    /// Each path's decision, the facts' verified chain and trust replaced by the path's; `selected` is the set's
    /// policy for the host.
    static func judged(_ paths: [ClientPath], facts: ProbeFacts, set: PolicySet, selected: Evaluator.Selection,
                       environment: String, named: Bool, now: Date) -> [(Evaluation, VersionVerdict)]? {
        var out: [(Evaluation, VersionVerdict)] = []
        out.reserveCapacity(paths.count)
        for path in paths {
            // A client that checks pins on every candidate takes the first path they accept.
            var chosen: (chain: Int, evaluation: Evaluation)?
            for k in 0...path.alternatives.count {
                let chain = k == 0 ? path.chain : path.alternatives[k - 1]
                let trust = Evaluator.Trust(chain: path.trusted && !chain.isEmpty ? chain : facts.servedChain, trusted: path.trusted)
                guard let e = Evaluator.evaluate(facts, on: trust, selected: selected, policySet: set, environment: environment,
                                                 named: named, now: now) else { return nil }
                if chosen.map({ $0.evaluation.verdict == .reject && e.verdict != .reject }) ?? true { chosen = (k, e) }
                if e.verdict != .reject { break }
            }
            guard let pick = chosen else { return nil }
            let chain = pick.chain == 0 ? path.chain : path.alternatives[pick.chain - 1]
            let e = pick.evaluation
            var v = VersionVerdict(versions: path.versions, chain: chain.map(\.certSHA256), anchor: path.trusted ? chain.last?.certSHA256 : nil,
                                   anchorSubject: path.trusted ? chain.last?.subject : nil, verdict: e.verdict,
                                   reason: e.reason, trustError: path.reason)
            v.anchorSPKI = path.trusted ? chain.last?.spkiSHA256 : nil
            v.versionName = facts.clientPaths.versionNames[set.client] ?? ""
            v.hazards = path.hazards
            out.append((e, v))
        }
        return out
    }

    /// Whether today's decisions accept at the first of `versions` (every version when nil).
    static func accepted(_ today: [(Evaluation, VersionVerdict)], at versions: ClientVersions?) -> Bool {
        guard let first = versions?.lower else { return today.allSatisfy { $0.0.verdict == .accept } }
        return today.contains { $0.1.versions.map { $0.contains(first) } ?? true && $0.0.verdict == .accept }
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
