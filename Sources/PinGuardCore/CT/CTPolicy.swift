import Foundation

/// The clients' published Certificate Transparency policies as tables, and the judgement of a chain's SCTs
/// against one of them (docs/reference.md, Certificate Transparency, cites each rule's source).
///
/// A chain complies when its embedded SCTs satisfy the embedded rules, or the SCTs delivered in the TLS
/// extension and stapled OCSP responses satisfy the delivered rules: the clients accept either.
public enum CTPolicy {
    /// The rules of `kind`.
    public static func rules(_ kind: CTPolicyKind) -> CTPolicyRules {
        switch kind {
        case .apple: apple
        case .chrome: chrome
        }
    }

    /// Apple's policy (support.apple.com/en-us/103214).
    public static let apple = CTPolicyRules(
        embeddedLogsByLifetime: [(180, 2), (398, 3)], deliveredLogs: 2, distinctOperators: 2,
        embeddedFromCurrentLogs: 1, rfc6962Logs: 0, retiredCountsBeforeRetirement: true, unenforcedWhenListStale: false)

    /// Chrome's policy (googlechrome.github.io/CertificateTransparency/ct_policy.html); Android applies it too.
    public static let chrome = CTPolicyRules(
        embeddedLogsByLifetime: [(180, 2), (.infinity, 3)], deliveredLogs: 2, distinctOperators: 2,
        embeddedFromCurrentLogs: 1, rfc6962Logs: 0, retiredCountsBeforeRetirement: true, unenforcedWhenListStale: true)

    /// Judges `scts` of the chain whose leaf is `leaf` against `rules` with the logs of `list`, at `now`.
    public static func judge(_ scts: [ObservedSCT], leaf: ChainCertificate, list: CTLogList, rules: CTPolicyRules,
                             now: Date) -> CTJudgement {
        if rules.unenforcedWhenListStale && list.isStale(at: now) {
            let days = Int(now.timeIntervalSince(list.timestamp) / 86_400)
            return CTJudgement(compliant: true, enforced: false,
                               reason: "not enforced: the \(list.name.rawValue) log list is \(days) days old")
        }
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore) / 86_400
        let embedded = CTPathCheck(path: .embedded, scts: scts.filter { $0.source == .embedded }, list: list, rules: rules,
                                   required: rules.embeddedLogs(forLifetimeDays: lifetime), lifetimeDays: lifetime)
        if embedded.failure == nil { return embedded.judgement }
        let delivered = CTPathCheck(path: .delivered, scts: scts.filter { $0.source != .embedded }, list: list, rules: rules,
                                    required: rules.deliveredLogs, lifetimeDays: lifetime)
        if delivered.failure == nil { return delivered.judgement }
        // Report the path the server attempted: embedded SCTs when it has any, else the delivered ones.
        let attempted = embedded.counted.isEmpty && !delivered.counted.isEmpty ? delivered : embedded
        var j = attempted.judgement
        j.reason += unusable(scts, list: list)
        return j
    }

    /// Judges every client policy for one chain: what `CTObservation.apple` and `.chrome` hold. Nothing is
    /// judged when SCTs were not collected or the chain is not anchored in a public root.
    public static func judged(_ observation: CTObservation, leaf: ChainCertificate?, lists: [CTLogListName: CTLogList],
                              now: Date) -> CTObservation {
        var o = observation
        guard o.collected, o.publiclyAnchored, let leaf else { return o }
        if let list = lists[CTClient.ios.logList] { o.apple = judge(o.scts, leaf: leaf, list: list, rules: apple, now: now) }
        if let list = lists[CTClient.chrome.logList] { o.chrome = judge(o.scts, leaf: leaf, list: list, rules: chrome, now: now) }
        return o
    }

    /// `" (N with a bad signature, M from logs not in the list)"` for the SCTs that could not count, or "".
    static func unusable(_ scts: [ObservedSCT], list: CTLogList) -> String {
        let invalid = scts.count { $0.status == .invalid }
        let unknown = scts.count { $0.status == .unknownLog || ($0.status == .valid && list.log(id: $0.logID) == nil) }
        var parts: [String] = []
        if invalid > 0 { parts.append("\(invalid) with a bad signature") }
        if unknown > 0 { parts.append("\(unknown) from logs not in the \(list.name.rawValue) list") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}
