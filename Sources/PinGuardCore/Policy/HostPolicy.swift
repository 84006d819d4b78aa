import Foundation

/// The pinning policy a client applies to one host.
///
/// The settings live in one shared, copy-on-write box: every decision holds the policy that made it, and
/// 100,000 decisions then hold 8 bytes each of it instead of the settings. Reading and writing the
/// properties behaves as on a plain struct.
public struct HostPolicy: Sendable, Equatable {
    private var settings: HostPolicySettings

    /// Configured pins, primary and backup.
    public var pins: [Pin] {
        get { settings.pins }
        set {
            let s = unique()
            s.pins = newValue
            s.subsets = PinSubsets()
        }
    }
    /// `strict` rejects on failure, `permissive` accepts.
    public var failStrategy: FailStrategy {
        get { settings.failStrategy }
        set { unique().failStrategy = newValue }
    }
    /// Whether the client also requires the chain to pass system trust and hostname checks.
    public var requireSystemTrust: Bool {
        get { settings.requireSystemTrust }
        set { unique().requireSystemTrust = newValue }
    }
    /// Whether a chain that passes system trust is accepted even when no pin matches.
    public var allowSystemTrustFallback: Bool {
        get { settings.allowSystemTrustFallback }
        set { unique().allowSystemTrustFallback = newValue }
    }
    /// After this instant the client stops enforcing pins (pin-set expiration).
    public var expires: Date? {
        get { settings.expires }
        set { unique().expires = newValue }
    }
    /// How pins combine.
    public var matchMode: PinMatchMode {
        get { settings.matchMode }
        set { unique().matchMode = newValue }
    }
    /// `certificate_transparency:` of this policy: whether the client checks CT for the hosts it covers,
    /// overriding the set's setting (an Android `<domain-config>` of its own); nil = the set's.
    public var certificateTransparency: CTRequirement? {
        get { settings.certificateTransparency }
        set { unique().certificateTransparency = newValue }
    }

    /// Creates a policy with the defaults of docs/reference.md, Policy files.
    public init(pins: [Pin] = [], failStrategy: FailStrategy = .strict, requireSystemTrust: Bool = true,
                allowSystemTrustFallback: Bool = false, expires: Date? = nil, matchMode: PinMatchMode = .any) {
        settings = HostPolicySettings(pins: pins, failStrategy: failStrategy, requireSystemTrust: requireSystemTrust,
                                      allowSystemTrustFallback: allowSystemTrustFallback, expires: expires, matchMode: matchMode)
    }

    /// The subsets of `pins` that evaluations share (not part of the policy's identity; new when the
    /// pins change).
    var subsets: PinSubsets { settings.subsets }

    /// Whether `other` is a copy of this very policy (the same rule of the same file as loaded), not merely an
    /// equal one: equal policies of two rules may still differ in their pins' source lines.
    func isCopy(of other: HostPolicy) -> Bool { settings === other.settings }

    /// The settings, copied first when another value shares them (copy-on-write).
    private mutating func unique() -> HostPolicySettings {
        if !isKnownUniquelyReferenced(&settings) { settings = settings.copy() }
        return settings
    }

    /// Equal when every setting is equal.
    public static func == (lhs: HostPolicy, rhs: HostPolicy) -> Bool {
        let (a, b) = (lhs.settings, rhs.settings)
        return a === b || (a.pins == b.pins && a.failStrategy == b.failStrategy && a.requireSystemTrust == b.requireSystemTrust
            && a.allowSystemTrustFallback == b.allowSystemTrustFallback && a.expires == b.expires
            && a.matchMode == b.matchMode && a.certificateTransparency == b.certificateTransparency)
    }
}

/// The settings of one `HostPolicy`, shared by its copies until one is changed. Unchecked `Sendable`: a value
/// changes them only while it holds them alone (`HostPolicy.unique()`), so shared settings are never written.
final class HostPolicySettings: @unchecked Sendable {
    var pins: [Pin]
    var failStrategy: FailStrategy
    var requireSystemTrust: Bool
    var allowSystemTrustFallback: Bool
    var expires: Date?
    var matchMode: PinMatchMode
    var certificateTransparency: CTRequirement?
    /// Kept by a copy: the same pins have the same subsets.
    var subsets = PinSubsets()

    init(pins: [Pin], failStrategy: FailStrategy, requireSystemTrust: Bool, allowSystemTrustFallback: Bool, expires: Date?,
         matchMode: PinMatchMode) {
        self.pins = pins
        self.failStrategy = failStrategy
        self.requireSystemTrust = requireSystemTrust
        self.allowSystemTrustFallback = allowSystemTrustFallback
        self.expires = expires
        self.matchMode = matchMode
    }

    /// A copy to change.
    func copy() -> HostPolicySettings {
        let c = HostPolicySettings(pins: pins, failStrategy: failStrategy, requireSystemTrust: requireSystemTrust,
                                   allowSystemTrustFallback: allowSystemTrustFallback, expires: expires, matchMode: matchMode)
        c.certificateTransparency = certificateTransparency
        c.subsets = subsets
        return c
    }
}
