import Foundation

/// One delivery path of a CT policy (embedded, or delivered in the TLS extension and stapled OCSP responses)
/// checked rule by rule: the SCTs that count, and the first rule they fail.
struct CTPathCheck {
    /// An SCT that counts, with its log and whether that log is approved now.
    struct Counted {
        let sct: ObservedSCT
        let log: CTLog
        let current: Bool
    }

    /// SCTs counted, one per distinct log.
    let counted: [Counted]
    /// The first rule not met; nil when the path complies.
    let failure: String?

    /// The judgement this path gives.
    var judgement: CTJudgement {
        CTJudgement(compliant: failure == nil, reason: failure ?? "", qualifyingLogs: counted.count,
                    operators: Set(counted.map(\.log.operatorName)).count)
    }

    /// The embedded path: enough distinct logs for the lifetime (capped per operator where the policy caps),
    /// one approved now, enough operators, enough RFC 6962 logs.
    static func embedded(_ scts: [ObservedSCT], list: CTLogList, rules: CTPolicyRules, lifetimeDays: Double) -> CTPathCheck {
        let earliest = scts.map(\.timestamp).min()
        let counted = distinct(scts.filter { $0.source == .embedded }.compactMap { sct in
            counts(sct, list: list, retiredBefore: rules.retiredLogsCount ? earliest : nil)
        })
        let row = rules.row(forLifetimeDays: lifetimeDays)
        let capped = cappedCount(counted, perOperator: row.perOperator)
        let cap = row.perOperator.map { ", at most \($0) per operator" } ?? ""
        let table: [(failed: Bool, reason: String)] = [
            (capped < row.logs, "\(capped) of \(row.logs) embedded SCTs from distinct qualifying logs\(cap) for a "
                + "\(Int(lifetimeDays.rounded(.up)))-day certificate"),
            (counted.count { $0.current } < rules.embeddedFromCurrentLogs, "no embedded SCT from a log that is qualified, usable or read-only now"),
        ] + sharedRules(counted, rules: rules, path: "embedded")
        return CTPathCheck(counted: counted, failure: table.first { $0.failed }?.reason)
    }

    /// The delivered path: enough distinct logs approved now, one of them delivered where the client reads
    /// delivered SCTs, enough operators, enough RFC 6962 logs.
    static func delivered(_ scts: [ObservedSCT], list: CTLogList, rules: CTPolicyRules) -> CTPathCheck {
        let usable = scts.filter { rules.deliveredSources.contains($0.source) || (rules.deliveredCountsEmbedded && $0.source == .embedded) }
        let counted = distinct(usable.compactMap { counts($0, list: list, retiredBefore: nil) })
        let delivered = counted.count { $0.sct.source != .embedded }
        let where_ = rules.deliveredSources.contains(.ocsp) ? "the TLS extension or a stapled OCSP response" : "the TLS extension"
        let table: [(failed: Bool, reason: String)] = [
            (delivered == 0, "no SCT from a qualifying log delivered in \(where_)"),
            (counted.count < rules.deliveredLogs, "\(counted.count) of \(rules.deliveredLogs) SCTs from distinct logs approved now"),
        ] + sharedRules(counted, rules: rules, path: "delivered")
        return CTPathCheck(counted: counted, failure: table.first { $0.failed }?.reason)
    }

    /// The operator and RFC 6962 rules, which both paths share.
    static func sharedRules(_ counted: [Counted], rules: CTPolicyRules, path: String) -> [(failed: Bool, reason: String)] {
        let operators = Set(counted.map(\.log.operatorName)).count
        let rfc6962 = counted.count { !$0.log.tiled }
        return [
            (operators < rules.distinctOperators, "\(path) SCTs from \(operators) log operator(s), \(rules.distinctOperators) needed"),
            (rfc6962 < rules.rfc6962Logs, "no \(path) SCT from an RFC 6962 log (tiled logs only)"),
        ]
    }

    /// Whether `sct` counts: a valid signature from a listed log that is approved now, or, given
    /// `retiredBefore` (the earliest SCT presented), a retired log retired after it.
    static func counts(_ sct: ObservedSCT, list: CTLogList, retiredBefore earliest: Date?) -> Counted? {
        guard sct.status == .valid, let log = list.log(id: sct.logID) else { return nil }
        switch log.state {
        case .qualified, .usable, .readonly:
            return Counted(sct: sct, log: log, current: true)
        case .retired:
            guard let earliest, let retired = log.stateSince, earliest < retired else { return nil }
            return Counted(sct: sct, log: log, current: false)
        case .pending, .rejected:
            return nil
        }
    }

    /// The first SCT of each log.
    static func distinct(_ counted: [Counted]) -> [Counted] {
        var seen = Set<String>()
        return counted.filter { seen.insert($0.log.logID).inserted }
    }

    /// SCTs counted with at most `perOperator` per operator.
    static func cappedCount(_ counted: [Counted], perOperator: Int?) -> Int {
        guard let perOperator else { return counted.count }
        return Dictionary(grouping: counted, by: \.log.operatorName).values.reduce(0) { $0 + min($1.count, perOperator) }
    }
}
