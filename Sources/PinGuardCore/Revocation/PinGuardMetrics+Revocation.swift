import Foundation

extension PinGuardMetrics {
    /// Whether a valid CRL lists a certificate of the evaluated chain as revoked.
    public static let certificateRevoked = MetricFamily(
        "pinguard_certificate_revoked", .gauge, labels: ["target", "address", "depth"],
        help: "1 when a valid CRL lists the certificate at this depth of the evaluated chain as revoked, 0 when a valid CRL covers it and does not list it; absent when no valid CRL is known (no distribution point, fetch failed, list not believed). Reported only: pinguard_policy_accept does not fold it in, as mobile clients do not check CRLs." + latest)
    /// nextUpdate of the last good CRL of each distribution point.
    public static let crlNextUpdate = MetricFamily(
        "pinguard_crl_next_update_timestamp_seconds", .gauge, labels: ["url"],
        help: "nextUpdate of the last CRL fetched from the distribution point that verified; pinguard fetches it again then. Absent until one verified.")
    /// Whether the last fetch of each distribution point brought a CRL that verified.
    public static let crlFetchSuccess = MetricFamily(
        "pinguard_crl_fetch_success", .gauge, labels: ["url"],
        help: "1 when the last fetch of the distribution point brought a CRL that parsed, verified with the issuer's key and was current; 0 when the fetch failed, the status was not 200, or the list was not believed (bad signature, wrong issuer, past its nextUpdate).")
}

/// The standing of one CRL distribution point: what `pinguard_crl_*` reports.
public struct CRLStatus: Sendable, Equatable {
    /// The distribution point's URL.
    public var url: String
    /// nextUpdate of the last good list; nil when none verified.
    public var nextUpdate: Date?
    /// Whether the last fetch brought a list that was believed.
    public var lastFetchSucceeded: Bool
    /// Why the last fetch was not believed; nil when it was.
    public var lastFailure: RevocationUnknown?

    /// Creates a status.
    public init(url: String, nextUpdate: Date?, lastFetchSucceeded: Bool, lastFailure: RevocationUnknown? = nil) {
        self.url = url
        self.nextUpdate = nextUpdate
        self.lastFetchSucceeded = lastFetchSucceeded
        self.lastFailure = lastFailure
    }
}

extension TargetSeries {
    /// `pinguard_certificate_revoked` per address and depth, where a valid CRL answers.
    static let revocation: [TargetSeries] = [
        TargetSeries(PinGuardMetrics.certificateRevoked, bytesPerTarget: 16) { r, _, w in
            for n in r.nodes {
                for c in n.facts.revocation {
                    guard let v = c.state.metricValue else { continue }
                    w.begin(); w.label(r.target.name); w.label(n.address); w.label(c.depth); w.end(v)
                }
            }
        },
    ]
}

extension MetricsRenderer {
    /// `pinguard_crl_next_update_timestamp_seconds` and `pinguard_crl_fetch_success`, starting in the first.
    static func writeCRLs(_ crls: [CRLStatus], into w: inout ExpositionWriter) {
        w.start(PinGuardMetrics.crlNextUpdate)
        for c in crls { if let t = c.nextUpdate { w.begin(); w.label(c.url); w.end(t) } }
        w.start(PinGuardMetrics.crlFetchSuccess)
        for c in crls { w.begin(); w.label(c.url); w.end(c.lastFetchSucceeded ? 1 : 0) }
    }
}
