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

    /// Forecasts that would say the same thing (the ratio to the percent, the day, the issuers, the versions).
    static func same(_ a: SetForecast, _ b: SetForecast) -> Bool {
        (a.rejectRatio * 100).rounded() == (b.rejectRatio * 100).rounded() && a.uncoveredIssuers == b.uncoveredIssuers
            && a.keyUnpinned == b.keyUnpinned && a.rejectingVersions == b.rejectingVersions
            && a.breakage.map { Int($0.timeIntervalSince1970 / 86_400) } == b.breakage.map { Int($0.timeIntervalSince1970 / 86_400) }
    }

    static func entry(_ t: Target, _ f: SetForecast, _ o: RenewalOutlook) -> JournalEntry {
        let day = String(RFC3339.format(o.nextRenewal).prefix(10))
        let percent = String(Int((f.rejectRatio * 100).rounded()))
        let reason: String
        let verdict: String
        switch ForecastVerdict.of(f, o) {
        case .safe:
            reason = "every plausible renewal is accepted"
            verdict = "no longer breaks \(f.policySet)"
        case .atRisk:
            reason = "it rejects a fresh key and no key plan is declared, observed or staged; safe: "
                + SituationWords.safeWays(f.safeKeys)
            verdict = "is at risk for \(f.policySet)"
        case .breaks:
            reason = SituationWords.why(f, o, file: o.stagedFile ?? "")
            verdict = "breaks \(f.policySet) in \(percent)% of plausible renewals"
        }
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
