extension PinGuardMetrics {
    // The forecast of each target's next renewal.

    /// When the next renewal is expected.
    public static let nextRenewal = MetricFamily(
        "pinguard_next_renewal_timestamp_seconds", .gauge, labels: ["target"],
        help: "Unix time of the target's expected next renewal: notAfter minus renewal.before, else a third of the leaf's lifetime before it.")
    /// Share of plausible next chains the set's client rejects.
    public static let renewalRejectRatio = MetricFamily(
        "pinguard_renewal_reject_ratio", .gauge, labels: ["target", "policy_set"],
        help: "Share of the plausible chains of the next renewal (next key x each issuer of the pool) the set's client rejects: 0 survives every one, 1 breaks on all.")
    /// When pins break: the next renewal, when the ratio is above 0.
    public static let pinBreakage = MetricFamily(
        "pinguard_pin_breakage_timestamp_seconds", .gauge, labels: ["target", "policy_set"],
        help: "Unix time of the next renewal when it may break the set's pins (reject ratio above 0); absent otherwise.")
    /// What the forecast assumed.
    public static let renewalForecastInfo = MetricFamily(
        "pinguard_renewal_forecast_info", .gauge, labels: ["target", "key", "key_basis", "issuers", "issuer_basis"],
        help: "1 per forecast target: the next key (reuse, rotate, unknown) and why, and the size of the issuer pool and why.")

    /// The forecast's families, in exposition order (after the other per-target families).
    public static let forecastFamilies: [MetricFamily] = [nextRenewal, renewalRejectRatio, pinBreakage, renewalForecastInfo]
}

/// The forecast families of a slice of results, one buffer each, in `PinGuardMetrics.forecastFamilies` order.
struct ForecastWriters {
    var next: ExpositionWriter
    var ratio: ExpositionWriter
    var breakage: ExpositionWriter
    var info: ExpositionWriter

    init(targets n: Int, headers: Bool) {
        typealias M = PinGuardMetrics
        next = ExpositionWriter(M.nextRenewal, capacity: n * 96, header: headers)
        ratio = ExpositionWriter(M.renewalRejectRatio, capacity: n * 160, header: headers)
        breakage = ExpositionWriter(M.pinBreakage, capacity: n * 64, header: headers)
        info = ExpositionWriter(M.renewalForecastInfo, capacity: n * 160, header: headers)
    }

    /// Writes `r`'s forecast series.
    mutating func write(_ r: TargetResult) {
        guard let o = r.outlook else { return }
        let name = r.target.name
        next.begin(); next.label(name); next.end(o.nextRenewal)
        info.begin(); info.label(name); info.label(o.key.rawValue); info.label(o.keyBasis.rawValue); info.label(o.issuers.count)
        info.label(o.issuerBasis.rawValue); info.end(1)
        for f in r.forecasts {
            ratio.begin(); ratio.label(name); ratio.label(f.policySet); ratio.end(f.rejectRatio)
            if let at = f.breakage { breakage.begin(); breakage.label(name); breakage.label(f.policySet); breakage.end(at) }
        }
    }

    /// The buffers in family order.
    var buffers: [[UInt8]] { [next.buffer, ratio.buffer, breakage.buffer, info.buffer] }
}
