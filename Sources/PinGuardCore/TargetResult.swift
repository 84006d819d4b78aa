import Foundation

/// The latest probe of one target and its evaluations: what /metrics and the journal report.
public struct TargetResult: Sendable {
    /// The configured target.
    public var target: Target
    /// What the probe saw.
    public var facts: ProbeFacts
    /// Decisions of every applicable policy set (empty: no set covers the target).
    public var evaluations: [Evaluation]

    /// Creates a result.
    public init(target: Target, facts: ProbeFacts, evaluations: [Evaluation]) {
        self.target = target
        self.facts = facts
        self.evaluations = evaluations
    }

    /// Evaluates `facts` for `target` against `sets` at `now`.
    public static func evaluate(_ facts: ProbeFacts, target: Target, sets: [PolicySet], now: Date) -> TargetResult {
        TargetResult(target: target, facts: facts,
                     evaluations: TargetEvaluation.evaluate(facts, environment: target.environment,
                                                            namedSets: target.policySets, sets: sets, now: now))
    }

    /// Whether every client accepts (false when the probe failed or any rejects).
    public var allAccept: Bool {
        facts.success && evaluations.allSatisfy { $0.verdict == .accept }
    }
}

/// Backup-pin coverage of one policy set in one environment: covered / evaluated targets.
public struct BackupPinCoverage: Sendable, Equatable {
    /// Policy set name.
    public var policySet: String
    /// Environment.
    public var environment: String
    /// Targets with a retrieved chain and a host policy.
    public var evaluated: Int
    /// Of those, targets with at least one reserve pin.
    public var covered: Int

    /// covered / evaluated, nil when nothing was evaluated.
    public var ratio: Double? { evaluated == 0 ? nil : Double(covered) / Double(evaluated) }

    /// Coverage per (policy set, environment) over `results`, sorted by set then environment.
    public static func compute(_ results: [TargetResult]) -> [BackupPinCoverage] {
        var acc: [String: BackupPinCoverage] = [:]
        for r in results {
            for e in r.evaluations where e.isEvaluated {
                let key = e.policySet + "\u{0}" + e.environment
                var c = acc[key] ?? BackupPinCoverage(policySet: e.policySet, environment: e.environment, evaluated: 0, covered: 0)
                c.evaluated += 1
                if e.isCovered { c.covered += 1 }
                acc[key] = c
            }
        }
        return acc.values.sorted { ($0.policySet, $0.environment) < ($1.policySet, $1.environment) }
    }
}
