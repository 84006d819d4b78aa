import Foundation

/// The clients' published Certificate Transparency policies as tables, and the judgement of a chain's SCTs
/// against one of them (docs/reference.md, Certificate Transparency, cites each rule's source).
///
/// A chain complies when its embedded SCTs satisfy the embedded rules, or its delivered SCTs (TLS extension,
/// stapled OCSP where the client reads it) satisfy the delivered rules: the clients accept either.
public enum CTPolicy {
    /// The rules of `kind`.
    public static func rules(_ kind: CTPolicyKind) -> CTPolicyRules {
        switch kind {
        case .apple: apple
        case .chrome: chrome
        case .android: android
        }
    }

    /// Apple's policy (support.apple.com/en-us/103214): 2 embedded SCTs from distinct logs of distinct
    /// operators up to 180 days, 3 with at most 2 per operator up to 398; or 2 from logs approved now with one
    /// delivered; one SCT from an RFC 6962 log in any case; no list-age rule.
    public static let apple = CTPolicyRules(
        lifetimeTable: [.init(upToDays: 180, logs: 2, perOperator: 1), .init(upToDays: 398, logs: 3, perOperator: 2)],
        lifetimeCount: .inclusiveDays, embeddedFromCurrentLogs: 1, deliveredSources: [.tls, .ocsp], deliveredLogs: 2,
        deliveredCountsEmbedded: true, distinctOperators: 0, rfc6962Logs: 1, retiredLogsCount: true, unenforcedWhenListStale: false)

    /// Chrome's policy (github.com/GoogleChrome/CertificateTransparency, ct_policy.md of 2026-04-15): 2
    /// embedded SCTs up to 180 days, 3 above, one from a log approved now, 2 operators; or 2 in the TLS
    /// extension from 2 operators (stapled OCSP no longer, from Chrome 148); unenforced with a list over 70 days old.
    public static let chrome = CTPolicyRules(
        lifetimeTable: [.init(upToDays: 180, logs: 2, perOperator: nil), .init(upToDays: .infinity, logs: 3, perOperator: nil)],
        lifetimeCount: .seconds, embeddedFromCurrentLogs: 1, deliveredSources: [.tls], deliveredLogs: 2,
        deliveredCountsEmbedded: false, distinctOperators: 2, rfc6962Logs: 0, retiredLogsCount: true, unenforcedWhenListStale: true)

    /// Android's policy (Conscrypt, platform/src/main/java/org/conscrypt/ct/PolicyImpl.java): Chrome's
    /// numbers, the lifetime in whole days, SCTs from stapled OCSP responses accepted.
    public static let android = CTPolicyRules(
        lifetimeTable: chrome.lifetimeTable, lifetimeCount: .truncatedDays, embeddedFromCurrentLogs: 1,
        deliveredSources: [.tls, .ocsp], deliveredLogs: 2, deliveredCountsEmbedded: false, distinctOperators: 2,
        rfc6962Logs: 0, retiredLogsCount: true, unenforcedWhenListStale: true)

    /// Judges `scts` of the chain whose leaf is `leaf` against `rules` with the logs of `list`, at `now`.
    public static func judge(_ scts: [ObservedSCT], leaf: ChainCertificate, list: CTLogList, rules: CTPolicyRules,
                             now: Date) -> CTJudgement {
        if rules.unenforcedWhenListStale && list.isStale(at: now) {
            let days = Int(now.timeIntervalSince(list.timestamp) / 86_400)
            return CTJudgement(compliant: true, enforced: false,
                               reason: "not enforced: the \(list.name.rawValue) log list is \(days) days old")
        }
        let lifetime = rules.lifetimeCount.days(from: leaf.notBefore, to: leaf.notAfter)
        let embedded = CTPathCheck.embedded(scts, list: list, rules: rules, lifetimeDays: lifetime)
        if embedded.failure == nil { return embedded.judgement }
        let delivered = CTPathCheck.delivered(scts, list: list, rules: rules)
        if delivered.failure == nil { return delivered.judgement }
        // Name the path the server attempted: embedded SCTs when it has any, else the delivered ones.
        let attempted = scts.contains { $0.source == .embedded } || !scts.contains { rules.deliveredSources.contains($0.source) }
            ? embedded : delivered
        var j = attempted.judgement
        j.reason += unusable(scts, list: list, rules: rules)
        return j
    }

    /// Judges every policy a set may ask for, once per chain: what `CTObservation.judgements` holds. Nothing
    /// is judged when SCTs were not collected or the chain is not anchored in a public root.
    public static func judged(_ observation: CTObservation, leaf: ChainCertificate?, lists: [CTLogListName: CTLogList],
                              now: Date) -> CTObservation {
        var o = observation
        guard o.collected, o.publiclyAnchored, let leaf else { return o }
        for kind in CTPolicyKind.allCases {
            guard let list = lists[kind.logList] else { continue }
            o.judgements[kind] = judge(o.scts, leaf: leaf, list: list, rules: rules(kind), now: now)
        }
        return o
    }

    /// `" (N with a bad signature, M from logs not in the list, K from stapled OCSP, which the client ignores)"`
    /// for the SCTs that could not count, or "".
    static func unusable(_ scts: [ObservedSCT], list: CTLogList, rules: CTPolicyRules) -> String {
        let invalid = scts.count { $0.status == .invalid }
        let unknown = scts.count { $0.status == .unknownLog || ($0.status == .valid && list.log(id: $0.logID) == nil) }
        let ignored = scts.count { $0.source != .embedded && !rules.deliveredSources.contains($0.source) }
        var parts: [String] = []
        if invalid > 0 { parts.append("\(invalid) with a bad signature") }
        if unknown > 0 { parts.append("\(unknown) from logs not in the \(list.name.rawValue) list") }
        if ignored > 0 { parts.append("\(ignored) from stapled OCSP, which the client ignores") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}
