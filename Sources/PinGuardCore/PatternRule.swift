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
