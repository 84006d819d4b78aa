/// What a set's forecast means for people: the rule the situations, the events and every report use.
public enum ForecastVerdict: String, Sendable {
    /// Every plausible renewal is accepted.
    case safe
    /// Only a fresh key breaks the set, no key plan is known, and safe keys exist.
    case atRisk = "at_risk"
    /// The renewal, as known, breaks the set.
    case breaks

    /// The verdict of forecast `f` under `o`.
    public static func of(_ f: SetForecast, _ o: RenewalOutlook) -> ForecastVerdict {
        guard f.rejectRatio > 0 else { return .safe }
        return o.key == .unknown && o.keyBasis != .staged && f.keyUnpinned && f.safeKeys.any ? .atRisk : .breaks
    }
}
