/// A log's state in a log list (Chrome's v3 schema, which Apple's list follows).
public enum CTLogState: String, Sendable, Codable, CaseIterable {
    /// Submitted for inclusion; not trusted yet.
    case pending
    /// Trusted, in its monitoring period.
    case qualified
    /// Trusted.
    case usable
    /// Trusted, no longer accepting new entries.
    case readonly
    /// No longer trusted for SCTs dated after the retirement.
    case retired
    /// Never trusted.
    case rejected
}
