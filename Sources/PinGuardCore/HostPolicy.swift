import Foundation

/// What a client does when trust or pins fail: reject (`strict`) or accept and report (`permissive`).
public enum FailStrategy: String, Sendable, Codable {
    case strict
    case permissive
}

/// How pins combine: any one match accepts, or every pin group needs its own match.
public enum PinMatchMode: String, Sendable, Codable {
    /// One matching pin accepts (PinGuard, TrustKit, OkHttp, Android, HPKP).
    case any
    /// Each distinct `group` needs at least one match (NSPinnedDomains with leaf and CA identities).
    case eachGroup = "each_group"
}

/// The pinning policy a client applies to one host.
public struct HostPolicy: Sendable, Equatable {
    /// Configured pins, primary and backup.
    public var pins: [Pin]
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

    /// Creates a policy with the spec's defaults.
    public init(pins: [Pin] = [], failStrategy: FailStrategy = .strict, requireSystemTrust: Bool = true,
                allowSystemTrustFallback: Bool = false, expires: Date? = nil, matchMode: PinMatchMode = .any) {
        self.pins = pins
        self.failStrategy = failStrategy
        self.requireSystemTrust = requireSystemTrust
        self.allowSystemTrustFallback = allowSystemTrustFallback
        self.expires = expires
        self.matchMode = matchMode
    }
}

/// One `pattern` → `policy` rule of an environment.
public struct PatternRule: Sendable, Equatable {
    /// The parsed pattern.
    public var pattern: HostPattern
    /// The policy for hosts it matches.
    public var policy: HostPolicy
    /// Source line of the rule, for diagnostics.
    public var line: Int?

    /// Creates a rule.
    public init(pattern: HostPattern, policy: HostPolicy, line: Int? = nil) {
        self.pattern = pattern
        self.policy = policy
        self.line = line
    }
}

/// The policies one client applies in one environment.
public struct PolicyEnvironment: Sendable, Equatable {
    /// Pattern rules, in file order.
    public var rules: [PatternRule]
    /// Policy for hosts that no rule matches.
    public var defaultPolicy: HostPolicy?
    /// Source line, for diagnostics.
    public var line: Int?

    /// Creates an environment.
    public init(rules: [PatternRule] = [], defaultPolicy: HostPolicy? = nil, line: Int? = nil) {
        self.rules = rules
        self.defaultPolicy = defaultPolicy
        self.line = line
    }

    /// The policy a client picks for `host`: exact, then `*.`, then longest `**.`, then the default.
    /// Returns the policy and the pattern text that selected it (`default` for the default policy).
    public func policy(for host: String) -> (policy: HostPolicy, pattern: String)? {
        let h = HostPattern.normalize(host)
        if let r = rules.first(where: { if case .exact = $0.pattern { return $0.pattern.matches(h) }; return false }) {
            return (r.policy, r.pattern.description)
        }
        if let r = rules.first(where: { if case .oneLabel = $0.pattern { return $0.pattern.matches(h) }; return false }) {
            return (r.policy, r.pattern.description)
        }
        let deep = rules.filter { if case .anyDepth = $0.pattern { return $0.pattern.matches(h) }; return false }
        if let r = deep.max(by: { $0.pattern.domain.count < $1.pattern.domain.count }) {
            return (r.policy, r.pattern.description)
        }
        if let d = defaultPolicy { return (d, "default") }
        return nil
    }
}

/// One pinned client (an app, optionally a version) with a policy set per environment.
public struct PolicySet: Sendable, Equatable {
    /// Unique name; label value `policy_set`.
    public var name: String
    /// Optional app version.
    public var version: String?
    /// Policies per environment name.
    public var environments: [String: PolicyEnvironment]
    /// File the set was loaded from.
    public var file: String?
    /// Line of `name:` in that file, for errors.
    public var nameLine: Int?

    /// Creates a policy set.
    public init(name: String, version: String? = nil, environments: [String: PolicyEnvironment], file: String? = nil) {
        self.name = name
        self.version = version
        self.environments = environments
        self.file = file
    }

    /// Whether this set has a policy (a rule or a default) for `host` in `environment`.
    public func covers(host: String, environment: String) -> Bool {
        environments[environment]?.policy(for: host) != nil
    }
}
