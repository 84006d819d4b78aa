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
            return (r.policy, r.text)
        }
        if let r = rules.first(where: { if case .oneLabel = $0.pattern { return $0.pattern.matches(h) }; return false }) {
            return (r.policy, r.text)
        }
        let deep = rules.filter { if case .anyDepth = $0.pattern { return $0.pattern.matches(h) }; return false }
        if let r = deep.max(by: { $0.pattern.domain.count < $1.pattern.domain.count }) {
            return (r.policy, r.text)
        }
        if let d = defaultPolicy { return (d, "default") }
        return nil
    }
}
