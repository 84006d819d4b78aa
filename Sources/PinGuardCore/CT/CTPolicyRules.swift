/// One client's published CT policy as numbers: what `CTPolicy` checks, rule by rule. The values and their
/// sources are in docs/reference.md, Certificate Transparency.
public struct CTPolicyRules: Sendable, Equatable {
    /// Distinct logs needed among embedded SCTs, by certificate lifetime: the first entry whose `upToDays`
    /// covers the lifetime applies; a lifetime beyond the last entry needs the last entry's count.
    public var embeddedLogsByLifetime: [(upToDays: Double, logs: Int)]
    /// Distinct logs needed among SCTs delivered in the TLS extension or a stapled OCSP response.
    public var deliveredLogs: Int
    /// Distinct log operators needed among the SCTs that count, embedded or delivered.
    public var distinctOperators: Int
    /// Embedded SCTs needed from a log that is approved now (qualified, usable or read-only), not retired.
    public var embeddedFromCurrentLogs: Int
    /// SCTs needed from an RFC 6962 log (not a tiled, static-ct-api one) among those that count.
    public var rfc6962Logs: Int
    /// Whether an SCT from a retired log counts when the SCT predates the retirement (embedded only).
    public var retiredCountsBeforeRetirement: Bool
    /// Whether the client stops enforcing when its log list is older than `CTLogList.staleAfterDays`.
    public var unenforcedWhenListStale: Bool

    /// The distinct logs needed among embedded SCTs for a certificate valid for `days`.
    public func embeddedLogs(forLifetimeDays days: Double) -> Int {
        (embeddedLogsByLifetime.first { days <= $0.upToDays } ?? embeddedLogsByLifetime.last)?.logs ?? 0
    }

    /// Equal when every rule is.
    public static func == (a: CTPolicyRules, b: CTPolicyRules) -> Bool {
        a.embeddedLogsByLifetime.elementsEqual(b.embeddedLogsByLifetime) { $0.upToDays == $1.upToDays && $0.logs == $1.logs }
            && a.deliveredLogs == b.deliveredLogs && a.distinctOperators == b.distinctOperators
            && a.embeddedFromCurrentLogs == b.embeddedFromCurrentLogs && a.rfc6962Logs == b.rfc6962Logs
            && a.retiredCountsBeforeRetirement == b.retiredCountsBeforeRetirement
            && a.unenforcedWhenListStale == b.unenforcedWhenListStale
    }
}
