import Foundation

/// The forecast of a target's next renewal as `probe` and `plan` show it: a JSON object and table lines.
public enum RenewalForecastReport {
    /// `{"next_renewal", "when_basis", "ari_window": {"start", "end", "explanation_url"} or null, "key", "key_basis",
    /// "issuer_basis", "issuers": [NAME...], "sets": [{"policy_set", "environment", "reject_ratio", "uncovered_issuers":
    /// [NAME...], "next_key_pinned", "verdict", "safe_keys"}]}`; nil without a forecast.
    public static func object(_ outlook: RenewalOutlook?, _ forecasts: [SetForecast]) -> [String: Any]? {
        guard let o = outlook else { return nil }
        return [
            "next_renewal": RFC3339.format(o.nextRenewal), "when_basis": o.whenBasis.rawValue,
            "ari_window": o.window.map { w -> Any in
                ["start": RFC3339.format(w.start), "end": RFC3339.format(w.end), "explanation_url": w.explanationURL ?? NSNull()] as [String: Any]
            } ?? NSNull(),
            "key": o.key.rawValue, "key_basis": o.keyBasis.rawValue,
            "issuer_basis": o.issuerBasis.rawValue, "issuers": o.issuers.map(\.name),
            "sets": forecasts.map { f -> [String: Any] in
                ["policy_set": f.policySet, "environment": f.environment, "reject_ratio": f.rejectRatio,
                 "uncovered_issuers": f.uncoveredIssuers, "next_key_pinned": !f.keyUnpinned,
                 "verdict": verdict(f, o).rawValue,
                 "safe_keys": ["keep_current": f.safeKeys.keepCurrent, "pinned_backups": f.safeKeys.pinnedBackups] as [String: Any]]
            },
        ]
    }

    /// Lines for the table: the assumption, then one line per set.
    public static func text(_ outlook: RenewalOutlook?, _ forecasts: [SetForecast]) -> String {
        guard let o = outlook else { return "" }
        let names = o.issuers.map(\.name)
        let shown = names.count > 6 ? names.prefix(6).joined(separator: ", ") + ", …" : names.joined(separator: ", ")
        var out = "next renewal \(RFC3339.format(o.nextRenewal).prefix(10)) (\(o.whenBasis.rawValue)): key \(o.key.rawValue) (\(o.keyBasis.rawValue)), "
            + "\(names.count) possible issuer\(names.count == 1 ? "" : "s") (\(o.issuerBasis.rawValue)): \(shown)\n"
        if let w = o.window {
            out += "  ari window: \(RFC3339.format(w.start)) to \(RFC3339.format(w.end))"
                + (w.explanationURL.map { ", explanation \($0)" } ?? "") + "\n"
        }
        for f in forecasts {
            let percent = Int((f.rejectRatio * 100).rounded())
            out += "  \(f.policySet)/\(f.environment): rejects \(percent)% of plausible renewals (assuming key \(o.key.rawValue)): "
            switch verdict(f, o) {
            case .safe: out += "safe"
            case .atRisk: out += "at risk with a fresh key; safe: " + SituationWords.safeWays(f.safeKeys)
            case .breaks: out += "breaks: " + SituationWords.why(f, o, file: o.stagedFile ?? "")
            }
            out += "\n"
        }
        return out
    }

    /// What a set's forecast means for people.
    public enum Verdict: String, Sendable {
        /// Every plausible renewal is accepted.
        case safe
        /// Only a fresh key breaks the set, no key plan is known, and safe keys exist.
        case atRisk = "at_risk"
        /// The renewal, as known, breaks the set.
        case breaks
    }

    /// The verdict of forecast `f` under `o`, the rule `SituationAssessor` uses.
    public static func verdict(_ f: SetForecast, _ o: RenewalOutlook) -> Verdict {
        guard f.rejectRatio > 0 else { return .safe }
        return o.key == .unknown && o.keyBasis != .staged && f.keyUnpinned && f.safeKeys.any ? .atRisk : .breaks
    }
}
