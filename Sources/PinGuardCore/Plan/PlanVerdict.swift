import Foundation

/// What one app (policy set, optionally a version) in one environment would decide if `host` served the
/// candidate chain.
public struct PlanVerdict: Sendable {
    /// The host name the candidate will serve.
    public var host: String
    /// Policy set (app) name.
    public var policySet: String
    /// The app version the policy file names, if any.
    public var version: String?
    /// Environment of the policy set.
    public var environment: String
    /// The simulated client decision on the candidate.
    public var evaluation: Evaluation
    /// The policy file, and the line of the rule that decided (for annotations).
    public var file: String?
    /// Line of the deciding pattern rule in `file`.
    public var line: Int?

    /// Whether the client accepts the candidate.
    public var accepts: Bool { evaluation.verdict == .accept }

    /// Whether, after the switch, the app still has a pin that the candidate does not use (a key to rotate to).
    public var keepsReservePin: Bool { !evaluation.reservePins.isEmpty }
}
