/// What checking an SCT's signature against its log's key found.
public enum SCTStatus: String, Sendable, Codable, CaseIterable {
    /// The signature verifies with the key of the log the SCT names.
    case valid
    /// The log is known but the signature does not verify (or the SCT is malformed or from the future).
    case invalid
    /// No loaded log list holds the log the SCT names, so it could not be checked.
    case unknownLog = "unknown_log"
}
