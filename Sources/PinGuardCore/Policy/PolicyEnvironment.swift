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
        // One pass over the rules, nothing copied but the rule chosen: the first exact match, else the first
        // `*.` match, else the `**.` match with the longest domain (the first of equals).
        var exact: Int?, oneLabel: Int?, deep: Int?, deepLength = -1
        for i in rules.indices {
            switch rules[i].pattern {
            case .exact(let d): if exact == nil && h == d { exact = i }
            case .oneLabel: if oneLabel == nil && rules[i].pattern.matches(h) { oneLabel = i }
            case .anyDepth(let d): if d.utf8.count > deepLength && rules[i].pattern.matches(h) { deep = i; deepLength = d.utf8.count }
            }
            if exact != nil { break }
        }
        if let r = exact ?? oneLabel ?? deep { return (rules[r].policy, rules[r].text) }
        if let d = defaultPolicy { return (d, "default") }
        return nil
    }
}
