/// What pinguard concluded about one policy bundle at the last (re)load, and the pins clients enforce.
public struct PolicyBundleStatus: Sendable {
    /// The configured bundle.
    public var bundle: PolicyBundle
    /// Verification outcome.
    public var state: PolicyBundleState
    /// Why it is not valid; nil when valid.
    public var error: String?
    /// The scheme and key ID the blob names, when it names one.
    public var scheme: SignatureScheme?
    /// Which pins clients enforce.
    public var kept: PolicyBundleKeptPins
    /// The policy set evaluated for the bundle (the pins clients enforce); nil when none is known.
    public var policySet: PolicySet?
    /// The set of the last verified payload (this one when valid), carried across reloads.
    public var lastVerified: PolicySet?

    /// Creates a status.
    public init(bundle: PolicyBundle, state: PolicyBundleState, error: String? = nil, scheme: SignatureScheme? = nil,
                kept: PolicyBundleKeptPins, policySet: PolicySet?, lastVerified: PolicySet?) {
        self.bundle = bundle
        self.state = state
        self.error = error
        self.scheme = scheme
        self.kept = kept
        self.policySet = policySet
        self.lastVerified = lastVerified
    }

    /// The status of a rejected bundle: clients keep the last verified payload (`previous`, from an earlier load),
    /// else the built-in pins, else nothing is known.
    public static func rejected(_ bundle: PolicyBundle, _ error: PolicyBundleError, scheme: SignatureScheme?,
                                previous: PolicySet?, builtin: PolicySet?) -> PolicyBundleStatus {
        let kept: PolicyBundleKeptPins = previous != nil ? .previousVerified : (builtin != nil ? .builtin : .none)
        return PolicyBundleStatus(bundle: bundle, state: error.status, error: error.message, scheme: scheme, kept: kept,
                                  policySet: previous ?? builtin, lastVerified: previous)
    }

    /// The same status after a reload, given the statuses of the previous load: a rejected bundle falls back to
    /// the payload verified before, as the apps do.
    public func carryingOver(_ previous: [PolicyBundleStatus]) -> PolicyBundleStatus {
        guard state != .valid, let old = previous.first(where: { $0.bundle.name == bundle.name })?.lastVerified else { return self }
        var s = self
        s.kept = .previousVerified
        s.policySet = old
        s.lastVerified = old
        return s
    }

    /// One line for logs and `check-config`: the outcome and which pins the clients keep.
    public var summary: String {
        let what = state == .valid ? "verified (\(scheme?.name ?? "?") key \(EchoedInput.quoted(scheme?.keyID ?? "")))"
            : "REJECTED (\(state.rawValue)): \(error ?? "")"
        let keep: String
        switch kept {
        case .bundle: keep = "clients enforce its pins"
        case .previousVerified: keep = "clients keep the previously verified payload"
        case .builtin: keep = "clients keep the pins built into the app (builtin_policy)"
        case .none: keep = "clients keep pins pinguard has not seen (no verified payload, no builtin_policy)"
        }
        return "policy bundle \(EchoedInput.quoted(bundle.name)) \(bundle.file): \(what); \(keep)"
    }
}
