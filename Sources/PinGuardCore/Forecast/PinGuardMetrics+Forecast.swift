extension PinGuardMetrics {
    // The forecast of each target's next renewal.

    /// When the next renewal is expected.
    public static let nextRenewal = MetricFamily(
        "pinguard_next_renewal_timestamp_seconds", .gauge, labels: ["target"],
        help: "Unix time of the target's expected next renewal: the start of the CA's renewal window (ACME Renewal Information), else notAfter minus renewal.before, else a third of the leaf's lifetime before it.")
    /// The start of the CA's renewal window for the served leaf.
    public static let ariWindowStart = MetricFamily(
        "pinguard_ari_window_start_timestamp_seconds", .gauge, labels: ["target"],
        help: "Unix time the renewal window the CA suggests for the served leaf starts (ACME Renewal Information, RFC 9773); absent when no window is known.")
    /// The end of the CA's renewal window for the served leaf.
    public static let ariWindowEnd = MetricFamily(
        "pinguard_ari_window_end_timestamp_seconds", .gauge, labels: ["target"],
        help: "Unix time the renewal window the CA suggests for the served leaf ends (ACME Renewal Information, RFC 9773); absent when no window is known.")
    /// Share of plausible next chains the set's client rejects.
    public static let renewalRejectRatio = MetricFamily(
        "pinguard_renewal_reject_ratio", .gauge, labels: ["target", "policy_set"],
        help: "Share of the plausible chains of the next renewal (next key x each issuer of the pool) the set's client rejects, when above 0 (1 breaks on all); absent for a forecast set that survives every one.")
    /// When pins break: the next renewal, when the ratio is above 0.
    public static let pinBreakage = MetricFamily(
        "pinguard_pin_breakage_timestamp_seconds", .gauge, labels: ["target", "policy_set"],
        help: "Unix time of the next renewal when it may break the set's pins (reject ratio above 0); absent otherwise.")
    /// What the forecast assumed.
    public static let renewalForecastInfo = MetricFamily(
        "pinguard_renewal_forecast_info", .gauge, labels: ["target", "key", "key_basis", "issuers", "issuer_basis", "when_basis"],
        help: "1 per forecast target that knows more than its served chain: the next key (reuse, rotate, unknown) and why, the size of the issuer pool and why, and where the date comes from (ari, before, lifetime); absent: key unknown, the current issuer alone, the date from the lifetime.")

    /// The forecast's families, in exposition order (after the other per-target families).
    public static let forecastFamilies: [MetricFamily] = [nextRenewal, ariWindowStart, ariWindowEnd, renewalRejectRatio, pinBreakage,
                                                          renewalForecastInfo]
}

extension TargetSeries {
    /// The forecast families, in `PinGuardMetrics.forecastFamilies` order.
    static let forecast: [TargetSeries] = [
        .perTarget(M.nextRenewal, bytesPerTarget: 96) { r in r.outlook?.nextRenewal.timeIntervalSince1970 },
        .perTarget(M.ariWindowStart, bytesPerTarget: 8) { r in r.outlook?.window?.start.timeIntervalSince1970 },
        .perTarget(M.ariWindowEnd, bytesPerTarget: 8) { r in r.outlook?.window?.end.timeIntervalSince1970 },
        TargetSeries(M.renewalRejectRatio, bytesPerTarget: 160) { r, _, w in
            guard r.outlook != nil else { return }
            // 0 (survives every plausible renewal) is the forecast's usual answer: `renewal_forecast_info` says a
            // forecast was made, so an absent ratio under it is 0.
            for f in r.forecasts where f.rejectRatio > 0 { w.begin(); w.label(r.target.name); w.label(f.policySet); w.end(f.rejectRatio) }
        },
        TargetSeries(M.pinBreakage, bytesPerTarget: 64) { r, _, w in
            guard r.outlook != nil else { return }
            for f in r.forecasts {
                guard let at = f.breakage else { continue }
                w.begin(); w.label(r.target.name); w.label(f.policySet); w.end(at)
            }
        },
        TargetSeries(M.renewalForecastInfo, bytesPerTarget: 160) { r, _, w in
            guard let o = r.outlook, !o.assumesNothing else { return }
            w.begin(); w.label(r.target.name); w.label(o.key.rawValue); w.label(o.keyBasis.rawValue); w.label(o.issuers.count)
            w.label(o.issuerBasis.rawValue); w.label(o.whenBasis.rawValue); w.end(1)
        },
    ]
}
