import Foundation

/// The result of evaluating one probe against one policy set in one environment.
public struct Evaluation: Sendable, Equatable {
    /// Policy set name.
    public var policySet: String
    /// Environment name.
    public var environment: String
    /// Pattern that selected the host policy (`default` for the default policy), nil if none.
    public var pattern: String?
    /// The client's decision.
    public var verdict: Verdict
    /// Why.
    public var reason: DecisionReason
    /// The host policy applied, if any.
    public var policy: HostPolicy?
    /// Pins that matched the evaluated chain within their scope.
    public var matchedPins: [PinMatch]
    /// Configured pins that match no certificate of the chain (RFC 7469 backup pins).
    public var reservePins: [Pin]
    /// Latest notAfter among the certificates the matching pins matched.
    public var pinHorizon: Date?
    /// Earliest notAfter of the evaluated chain.
    public var earliestExpiry: Date?
    /// Days from `now` to `pinHorizon` (conservative for spki pins: a renewal that keeps the key keeps matching).
    public var daysToPinBreakage: Double?
    /// Days from `now` to `earliestExpiry`.
    public var daysToExpiry: Double?
    /// Configured pins that equal the SHA-256 of a chain certificate's raw public key instead of its SPKI: an
    /// SPKI-based client never matches them (docs/reference.md, Evaluation).
    public var rawKeyPins: [RawKeyPin] = []
    /// The verdict of the set's CT policy on the chain, when the set's client checks CT and the chain is
    /// publicly anchored (docs/reference.md, Certificate Transparency).
    public var ct: CTJudgement?
    /// The client whose CT policy `ct` is, when judged.
    public var ctClient: CTClient?
    /// The decision on each range of the set's `client_versions` whose store gives its client a path of its
    /// own, when the probe judged the client's paths; the verdict above is the worst of them.
    public var paths: [VersionVerdict] = []
    /// The changes ahead in the client's store (a root added, removed or distrusted; versions not yet in use)
    /// that turn this accept into a reject on some of the set's versions.
    public var clientUpdates: [ClientUpdateBreak] = []

    /// Whether a chain was retrieved and a host policy found (counts towards backup-pin coverage).
    public var isEvaluated: Bool { policy != nil && reason != .probeFailed && reason != .policyMissing }

    /// Whether at least one reserve pin exists.
    public var isCovered: Bool { !reservePins.isEmpty }

    /// Only backup-role pins match today: a rotation already happened.
    public var backupInUse: Bool {
        !matchedPins.isEmpty && matchedPins.allSatisfy { $0.pin.role == .backup }
    }

    /// This decision with its day counts taken at `now` instead of at the probe (the decision itself is
    /// kept): what a reload gives a set whose policies did not change.
    public func measured(at now: Date) -> Evaluation {
        var e = self
        e.daysToExpiry = earliestExpiry.map { $0.timeIntervalSince(now) / Evaluator.secondsPerDay }
        e.daysToPinBreakage = pinHorizon.map { $0.timeIntervalSince(now) / Evaluator.secondsPerDay }
        return e
    }
}
