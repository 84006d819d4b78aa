/// Which published CT policy a client applies.
public enum CTPolicyKind: String, Sendable, Codable, CaseIterable {
    /// Apple's Certificate Transparency policy.
    case apple
    /// Chrome's Certificate Transparency policy (Android applies the same rules).
    case chrome
}
