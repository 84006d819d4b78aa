/// Number of lint findings of one severity in one policy set.
public struct LintCount: Sendable, Equatable {
    /// Policy set name.
    public var policySet: String
    /// `error`, `warning` or `info`.
    public var severity: String
    /// How many.
    public var count: Int

    /// Creates a count.
    public init(policySet: String, severity: String, count: Int) {
        self.policySet = policySet
        self.severity = severity
        self.count = count
    }
}
