import Foundation

/// The forecast of a target's next renewal as `probe` and `plan` show it: a JSON object and table lines.
public enum RenewalForecastReport {
    /// `{"next_renewal", "key", "key_basis", "issuer_basis", "issuers": [NAME...], "sets": [{"policy_set",
    /// "environment", "reject_ratio", "uncovered_issuers": [NAME...], "next_key_pinned"}]}`; nil without a forecast.
    public static func object(_ outlook: RenewalOutlook?, _ forecasts: [SetForecast]) -> [String: Any]? {
        guard let o = outlook else { return nil }
        return [
            "next_renewal": RFC3339.format(o.nextRenewal), "key": o.key.rawValue, "key_basis": o.keyBasis.rawValue,
            "issuer_basis": o.issuerBasis.rawValue, "issuers": o.issuers.map(\.name),
            "sets": forecasts.map { f -> [String: Any] in
                ["policy_set": f.policySet, "environment": f.environment, "reject_ratio": f.rejectRatio,
                 "uncovered_issuers": f.uncoveredIssuers, "next_key_pinned": !f.keyUnpinned]
            },
        ]
    }

    /// Lines for the table: the assumption, then one line per set.
    public static func text(_ outlook: RenewalOutlook?, _ forecasts: [SetForecast]) -> String {
        guard let o = outlook else { return "" }
        let names = o.issuers.map(\.name)
        let shown = names.count > 6 ? names.prefix(6).joined(separator: ", ") + ", …" : names.joined(separator: ", ")
        var out = "next renewal \(RFC3339.format(o.nextRenewal).prefix(10)): key \(o.key.rawValue) (\(o.keyBasis.rawValue)), "
            + "\(names.count) possible issuer\(names.count == 1 ? "" : "s") (\(o.issuerBasis.rawValue)): \(shown)\n"
        for f in forecasts {
            let percent = Int((f.rejectRatio * 100).rounded())
            out += "  \(f.policySet)/\(f.environment): rejects \(percent)% of plausible renewals"
            if f.keyUnpinned { out += "; the next key is not pinned" }
            if !f.uncoveredIssuers.isEmpty && f.uncoveredIssuers.count < names.count {
                out += "; no pin covers \(f.uncoveredIssuers.joined(separator: ", "))"
            }
            out += "\n"
        }
        return out
    }
}
