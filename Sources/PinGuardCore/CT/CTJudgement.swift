/// One client policy's verdict on a chain's SCTs: the policy is met, or it is failed for a stated reason.
public struct CTJudgement: Sendable, Equatable {
    /// Whether the SCTs satisfy the policy.
    public var compliant: Bool
    /// Whether the client enforces the policy at all (false: Chrome's list is stale, so every chain passes).
    public var enforced: Bool
    /// Why not, in one line naming the rule that failed; when not enforced, why (empty when compliant).
    public var reason: String
    /// Valid SCTs from logs the list trusts, counted once per distinct log.
    public var qualifyingLogs: Int
    /// Distinct operators among those logs.
    public var operators: Int

    /// A verdict of the policy.
    public init(compliant: Bool, enforced: Bool = true, reason: String = "", qualifyingLogs: Int = 0, operators: Int = 0) {
        self.compliant = compliant
        self.enforced = enforced
        self.reason = reason
        self.qualifyingLogs = qualifyingLogs
        self.operators = operators
    }
}
