/// One client's published CT policy as numbers: what `CTPolicy` checks, rule by rule. The values and their
/// sources are in docs/reference.md, Certificate Transparency.
public struct CTPolicyRules: Sendable, Equatable {
    /// One row of a lifetime table: certificates valid up to `upToDays` need embedded SCTs from `logs`
    /// distinct logs, with at most `perOperator` of them counted per log operator (nil: no cap).
    public struct LifetimeRow: Sendable, Equatable {
        /// The longest lifetime the row covers, in days.
        public var upToDays: Double
        /// Distinct logs needed.
        public var logs: Int
        /// SCTs counted per operator at most.
        public var perOperator: Int?
    }

    /// The lifetime table for embedded SCTs; a lifetime beyond the last row needs the last row.
    public var lifetimeTable: [LifetimeRow]
    /// How the lifetime is measured.
    public var lifetimeCount: CTLifetimeCount
    /// Embedded SCTs needed from a log that is approved now (qualified, usable or read-only), not retired.
    public var embeddedFromCurrentLogs: Int
    /// Where delivered SCTs are accepted from.
    public var deliveredSources: Set<SCTSource>
    /// Distinct logs (approved now) needed on the delivered path.
    public var deliveredLogs: Int
    /// Whether embedded SCTs count towards `deliveredLogs` once one SCT is delivered (Apple).
    public var deliveredCountsEmbedded: Bool
    /// Distinct log operators needed among the SCTs that count, on either path (0: no such rule).
    public var distinctOperators: Int
    /// SCTs needed from an RFC 6962 log (not a tiled, static-ct-api one) among those that count.
    public var rfc6962Logs: Int
    /// Whether a retired log counts on the embedded path, when the earliest SCT presented predates its retirement.
    public var retiredLogsCount: Bool
    /// Whether the client stops enforcing when its log list is older than `CTLogList.staleAfterDays`.
    public var unenforcedWhenListStale: Bool

    /// The row of the lifetime table for a certificate valid for `days`.
    public func row(forLifetimeDays days: Double) -> LifetimeRow {
        lifetimeTable.first { days <= $0.upToDays } ?? lifetimeTable[lifetimeTable.count - 1]
    }
}
