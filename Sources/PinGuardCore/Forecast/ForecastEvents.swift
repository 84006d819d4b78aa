import Foundation

/// `renewal_will_break_pins`: written when a set's forecast for a target changes (and for the first
/// forecast of a set only when it breaks something).
public enum ForecastEvents {
    /// The events of `new`'s forecasts against `old`'s.
    public static func changes(from old: TargetResult?, to new: TargetResult) -> [JournalEntry] {
        guard let outlook = new.outlook else { return [] }
        var out: [JournalEntry] = []
        for f in new.forecasts {
            let before = old?.forecasts.first { $0.policySet == f.policySet && $0.environment == f.environment }
            if let before, same(before, f) { continue }
            if before == nil && f.rejectRatio == 0 { continue }
            out.append(entry(new.target, f, outlook))
        }
        return out
    }

    /// Forecasts that would say the same thing (the ratio to the percent, the day, the issuers).
    static func same(_ a: SetForecast, _ b: SetForecast) -> Bool {
        (a.rejectRatio * 100).rounded() == (b.rejectRatio * 100).rounded() && a.uncoveredIssuers == b.uncoveredIssuers
            && a.keyUnpinned == b.keyUnpinned
            && a.breakage.map { Int($0.timeIntervalSince1970 / 86_400) } == b.breakage.map { Int($0.timeIntervalSince1970 / 86_400) }
    }

    static func entry(_ t: Target, _ f: SetForecast, _ o: RenewalOutlook) -> JournalEntry {
        let day = String(RFC3339.format(o.nextRenewal).prefix(10))
        let percent = String(Int((f.rejectRatio * 100).rounded()))
        var why: [String] = []
        if f.keyUnpinned { why.append("the next key (\(o.key.rawValue), \(o.keyBasis.rawValue)) is not pinned") }
        if !f.uncoveredIssuers.isEmpty && f.uncoveredIssuers.count < o.issuers.count {
            why.append("no pin covers issuers \(f.uncoveredIssuers.joined(separator: ", ")) of \(o.issuers.count) (\(o.issuerBasis.rawValue))")
        }
        let reason = why.isEmpty ? (f.rejectRatio > 0 ? "no pin matches the next chain" : "every plausible renewal is accepted") : why.joined(separator: "; ")
        let verdict = f.rejectRatio > 0 ? "breaks \(f.policySet) in \(percent)% of plausible renewals" : "no longer breaks \(f.policySet)"
        return JournalEntry(
            event: .renewalWillBreakPins,
            message: "\(t.name): the next renewal (\(day)) \(verdict): \(reason)",
            fields: [("PINGUARD_TARGET", t.name), ("PINGUARD_HOST", t.host), ("PINGUARD_PORT", String(t.port)),
                     ("PINGUARD_POLICY_SET", f.policySet), ("PINGUARD_ENVIRONMENT", f.environment),
                     ("PINGUARD_NEXT_RENEWAL", RFC3339.format(o.nextRenewal)), ("PINGUARD_REJECT_RATIO", String(f.rejectRatio)),
                     ("PINGUARD_NEXT_KEY", o.key.rawValue), ("PINGUARD_KEY_BASIS", o.keyBasis.rawValue),
                     ("PINGUARD_ISSUER_BASIS", o.issuerBasis.rawValue),
                     ("PINGUARD_UNCOVERED_ISSUERS", f.uncoveredIssuers.joined(separator: ",")), ("PINGUARD_REASON", reason)])
    }
}
