/// One `pattern` → `policy` rule of an environment.
public struct PatternRule: Sendable, Equatable {
    /// The parsed pattern.
    public var pattern: HostPattern {
        didSet { text = pattern.description }
    }
    /// `pattern.description`, made once: every evaluation a rule selects carries it (`Evaluation.pattern`),
    /// and 100,000 results would otherwise hold 100,000 copies of the same text.
    private(set) var text: String
    /// The policy for hosts it matches.
    public var policy: HostPolicy
    /// Source line of the rule, for diagnostics.
    public var line: Int?

    /// Creates a rule.
    public init(pattern: HostPattern, policy: HostPolicy, line: Int? = nil) {
        self.pattern = pattern
        self.text = pattern.description
        self.policy = policy
        self.line = line
    }
}
