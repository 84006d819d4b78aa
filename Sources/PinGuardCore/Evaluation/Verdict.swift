/// The simulated client's decision.
public enum Verdict: String, Sendable, Codable {
    case accept
    case reject
    /// No decision: the probe got no chain.
    case none
}
