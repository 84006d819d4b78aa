import Foundation
import PinGuardCore

/// The forecast of a target's next renewal as `probe` and `plan` show it: a JSON object and table lines.
public enum RenewalForecastReport {
    /// `{"next_renewal", "when_basis", "ari_window": {"start", "end", "explanation_url"} or null, "key", "key_basis",
    /// "issuer_basis", "issuers": [NAME...], "sets": [{"policy_set", "environment", "reject_ratio", "uncovered_issuers":
    /// [NAME...], "next_key_pinned", "rejecting_versions", "verdict", "safe_keys"}]}`; nil without a forecast.
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
                 "rejecting_versions": f.rejectingVersions ?? NSNull(),
                 "verdict": ForecastVerdict.of(f, o).rawValue,
                 "safe_keys": ["keep_current": f.safeKeys.keepCurrent, "pinned_backups": f.safeKeys.pinnedBackups] as [String: Any]]
            },
        ]
    }

    /// The next key and why it is believed: "kept (declared)", "not known: no renewal observed yet, none declared".
    static func keyWords(_ o: RenewalOutlook) -> String {
        let what: String = switch o.key {
        case .reuse: "kept"
        case .rotate: "fresh"
        case .unknown: "not known"
        }
        let why: String = switch o.keyBasis {
        case .staged: "the staged renewal's"
        case .declared: "declared"
        case .observed: "as the last renewal did"
        case .unknown: "no renewal observed yet, none declared (renewal.key, --renewal-key) or staged"
        }
        return o.keyBasis == .unknown ? "\(what): \(why)" : "\(what) (\(why))"
    }

    /// What the ratio assumes of the next key.
    static func assumption(_ o: RenewalOutlook) -> String {
        switch o.key {
        case .reuse: "with the key kept"
        case .rotate: "with a fresh key"
        case .unknown: "the key not known, so judged as fresh"
        }
    }

    /// Lines for the table: the assumption, then one line per set.
    public static func text(_ outlook: RenewalOutlook?, _ forecasts: [SetForecast]) -> String {
        guard let o = outlook else { return "" }
        let names = o.issuers.map(\.name)
        let shown = names.count > 6 ? names.prefix(6).joined(separator: ", ") + ", …" : names.joined(separator: ", ")
        var out = "next renewal \(RFC3339.format(o.nextRenewal).prefix(10)) (\(o.whenBasis.rawValue)): key \(keyWords(o)), "
            + "\(names.count) possible issuer\(names.count == 1 ? "" : "s") (\(o.issuerBasis.rawValue)): \(shown)\n"
        if let w = o.window {
            out += "  ari window: \(RFC3339.format(w.start)) to \(RFC3339.format(w.end))"
                + (w.explanationURL.map { ", explanation \($0)" } ?? "") + "\n"
        }
        for f in forecasts {
            let percent = Int((f.rejectRatio * 100).rounded())
            out += "  \(f.policySet)/\(f.environment): rejects \(percent)% of plausible renewals (\(assumption(o))): "
            switch ForecastVerdict.of(f, o) {
            case .safe: out += "safe"
            case .atRisk: out += "at risk with a fresh key; safe: " + SituationWords.safeWays(f.safeKeys)
            case .breaks: out += "breaks: " + SituationWords.why(f, o, file: o.stagedFile ?? "")
            }
            out += "\n"
        }
        return out
    }
}
