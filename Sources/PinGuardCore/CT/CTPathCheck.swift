import Foundation

/// One delivery path of a CT policy (embedded, or TLS and OCSP together) checked rule by rule: the SCTs
/// that count, and the first rule they fail.
struct CTPathCheck {
    /// Which SCTs a path reads.
    enum Path: String {
        case embedded
        case delivered = "TLS/OCSP"
    }

    /// An SCT that counts, with its log and whether that log is approved now.
    struct Counted {
        let sct: ObservedSCT
        let log: CTLog
        let current: Bool
    }

    let path: Path
    let required: Int
    let rules: CTPolicyRules
    let counted: [Counted]
    /// The first rule not met, in the order of `rulesInOrder`; nil when the path complies.
    let failure: String?

    init(path: Path, scts: [ObservedSCT], list: CTLogList, rules: CTPolicyRules, required: Int, lifetimeDays: Double) {
        self.path = path
        self.required = required
        self.rules = rules
        var seen = Set<String>()
        counted = scts.compactMap { CTPathCheck.counts($0, path: path, list: list, rules: rules) }
            .filter { seen.insert($0.log.logID).inserted }
        failure = CTPathCheck.firstFailure(counted, path: path, required: required, rules: rules, lifetimeDays: lifetimeDays)
    }

    /// The judgement this path gives.
    var judgement: CTJudgement {
        CTJudgement(compliant: failure == nil, reason: failure ?? "", qualifyingLogs: counted.count, operators: operators)
    }

    var operators: Int { Set(counted.map(\.log.operatorName)).count }

    /// Whether `sct` counts on `path`: a valid signature from a listed log that is approved now, or (embedded
    /// only, where the rules allow) a retired log when the SCT predates the retirement.
    static func counts(_ sct: ObservedSCT, path: Path, list: CTLogList, rules: CTPolicyRules) -> Counted? {
        guard sct.status == .valid, let log = list.log(id: sct.logID) else { return nil }
        switch log.state {
        case .qualified, .usable, .readonly:
            return Counted(sct: sct, log: log, current: true)
        case .retired where path == .embedded && rules.retiredCountsBeforeRetirement:
            guard let retired = log.stateSince, sct.timestamp < retired else { return nil }
            return Counted(sct: sct, log: log, current: false)
        default:
            return nil
        }
    }

    /// The policy's rules for a path, in the order a reason names the first one failed.
    static func firstFailure(_ counted: [Counted], path: Path, required: Int, rules: CTPolicyRules,
                             lifetimeDays: Double) -> String? {
        let operators = Set(counted.map(\.log.operatorName)).count
        let current = counted.count { $0.current }
        let rfc6962 = counted.count { !$0.log.tiled }
        let lifetime = path == .embedded ? " for a \(Int(lifetimeDays.rounded()))-day certificate" : ""
        let table: [(failed: Bool, reason: String)] = [
            (counted.count < required, "\(counted.count) of \(required) \(path.rawValue) SCTs from distinct qualifying logs\(lifetime)"),
            (operators < rules.distinctOperators, "\(path.rawValue) SCTs from \(operators) log operator(s), \(rules.distinctOperators) needed"),
            (path == .embedded && current < rules.embeddedFromCurrentLogs,
             "no embedded SCT from a log that is qualified, usable or read-only now"),
            (rfc6962 < rules.rfc6962Logs, "\(rfc6962) \(path.rawValue) SCTs from RFC 6962 logs, \(rules.rfc6962Logs) needed"),
        ]
        return table.first { $0.failed }?.reason
    }
}
