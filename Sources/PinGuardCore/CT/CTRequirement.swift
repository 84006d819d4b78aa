/// `certificate_transparency:` in a policy file: overrides whether the set's client enforces CT.
public enum CTRequirement: String, Sendable, Codable, CaseIterable {
    /// The chain must satisfy the client's CT policy.
    case required
    /// No CT check.
    case off
}
