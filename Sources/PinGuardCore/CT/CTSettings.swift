import Foundation

/// Everything Certificate Transparency needs beyond the SCTs a probe returns: the log lists in force, which
/// roots count as public, and whether any policy set checks CT at all (otherwise SCTs are not collected).
public struct CTSettings: Sendable, Equatable {
    /// The log lists in force (bundled or `ct.log_lists`), by name.
    public var lists: [CTLogListName: CTLogList]
    /// Which anchors are public.
    public var publicRoots: CTPublicRoots
    /// Whether some policy set's client checks CT: SCTs are collected and judged only then.
    public var collect: Bool

    /// Settings; the default collects nothing.
    public init(lists: [CTLogListName: CTLogList] = [:], publicRoots: CTPublicRoots = .systemStore, collect: Bool = false) {
        self.lists = lists
        self.publicRoots = publicRoots
        self.collect = collect
    }

    /// Every log of every list, for verifying SCT signatures (a log in both lists appears twice).
    public var allLogs: [CTLog] { CTLogListName.allCases.flatMap { lists[$0]?.logs ?? [] } }

    /// `facts` with `ct.publiclyAnchored` and each client policy's judgement filled in, at `now`.
    public func judged(_ facts: ProbeFacts, now: Date) -> ProbeFacts {
        guard facts.ct.collected else { return facts }
        var f = facts
        f.ct.publiclyAnchored = f.trusted && publicRoots.contains(f.verifiedChain.last)
        f.ct = CTPolicy.judged(f.ct, leaf: f.servedChain.first, lists: lists, now: now)
        return f
    }

    /// `probe` with every address judged.
    public func judged(_ probe: TargetProbe, now: Date) -> TargetProbe {
        guard collect else { return probe }
        var p = probe
        p.nodes = p.nodes.map { judged($0, now: now) }
        return p
    }

    /// One warning per list in use that Chrome and Android would find stale at `now` (they stop enforcing
    /// CT when their list is older than 70 days; Apple states no such rule, so its list is not named), and only
    /// when one of `sets` is judged with that list.
    public func staleListWarnings(at now: Date, sets: [PolicySet]) -> [String] {
        guard collect, sets.contains(where: { $0.checksCT && $0.client.policy.logList == .chrome }), let list = lists[.chrome], list.isStale(at: now)
        else { return [] }
        let days = Int(now.timeIntervalSince(list.timestamp) / 86_400)
        return ["the chrome CT log list (\(list.origin), \(RFC3339.format(list.timestamp))) is \(days) days old: Chrome and "
                + "Android stop enforcing CT after 70 days, and so are they judged; give a fresh list in ct.log_lists.chrome"]
    }

    /// Whether some set of `sets` checks CT.
    public static func needed(by sets: [PolicySet]) -> Bool { sets.contains(where: \.checksCT) }
}
