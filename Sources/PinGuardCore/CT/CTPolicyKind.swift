/// Which published CT policy a client applies.
public enum CTPolicyKind: String, Sendable, Codable, CaseIterable {
    /// Apple's Certificate Transparency policy.
    case apple
    /// Chrome's Certificate Transparency policy.
    case chrome
    /// Android's (Conscrypt's `PolicyImpl`): Chrome's rules, with SCTs from stapled OCSP responses still
    /// accepted and the lifetime counted in whole days.
    case android

    /// The log list the policy is judged with: Apple's for Apple's policy, Chrome's for the others.
    public var logList: CTLogListName { self == .apple ? .apple : .chrome }
}
