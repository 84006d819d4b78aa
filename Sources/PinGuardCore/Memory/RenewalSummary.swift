/// What the state knows about a target's renewals.
public struct RenewalSummary: Hashable, Sendable {
    /// Renewals observed since the target was first seen.
    public var renewals: Int
    /// When the last renewal was observed, Unix seconds; nil before the first.
    public var lastRenewal: Int64?
    /// Whether the last renewal kept the leaf's key.
    public var lastKeyReused: Bool
    /// Whether the last renewal changed the issuer's key.
    public var lastIssuerChanged: Bool

    /// Creates a summary.
    public init(renewals: Int = 0, lastRenewal: Int64? = nil, lastKeyReused: Bool = false,
                lastIssuerChanged: Bool = false) {
        self.renewals = renewals
        self.lastRenewal = lastRenewal
        self.lastKeyReused = lastKeyReused
        self.lastIssuerChanged = lastIssuerChanged
    }
}
