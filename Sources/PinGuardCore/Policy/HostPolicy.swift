import Foundation

/// The pinning policy a client applies to one host.
public struct HostPolicy: Sendable, Equatable {
    /// Configured pins, primary and backup.
    public var pins: [Pin] { didSet { subsets = PinSubsets() } }
    /// `strict` rejects on failure, `permissive` accepts.
    public var failStrategy: FailStrategy
    /// Whether the client also requires the chain to pass system trust and hostname checks.
    public var requireSystemTrust: Bool
    /// Whether a chain that passes system trust is accepted even when no pin matches.
    public var allowSystemTrustFallback: Bool
    /// After this instant the client stops enforcing pins (pin-set expiration).
    public var expires: Date?
    /// How pins combine.
    public var matchMode: PinMatchMode
    /// `certificate_transparency:` of this policy: whether the client checks CT for the hosts it covers,
    /// overriding the set's setting (an Android `<domain-config>` of its own); nil = the set's.
    public var certificateTransparency: CTRequirement?

    /// Creates a policy with the defaults of docs/reference.md, Policy files.
    public init(pins: [Pin] = [], failStrategy: FailStrategy = .strict, requireSystemTrust: Bool = true,
                allowSystemTrustFallback: Bool = false, expires: Date? = nil, matchMode: PinMatchMode = .any) {
        self.pins = pins
        self.failStrategy = failStrategy
        self.requireSystemTrust = requireSystemTrust
        self.allowSystemTrustFallback = allowSystemTrustFallback
        self.expires = expires
        self.matchMode = matchMode
    }

    /// The subsets of `pins` that evaluations share (not part of the policy's identity; new when the
    /// pins change).
    var subsets = PinSubsets()

    /// Equal when every setting is equal.
    public static func == (lhs: HostPolicy, rhs: HostPolicy) -> Bool {
        lhs.pins == rhs.pins && lhs.failStrategy == rhs.failStrategy && lhs.requireSystemTrust == rhs.requireSystemTrust
            && lhs.allowSystemTrustFallback == rhs.allowSystemTrustFallback && lhs.expires == rhs.expires
            && lhs.matchMode == rhs.matchMode && lhs.certificateTransparency == rhs.certificateTransparency
    }
}
