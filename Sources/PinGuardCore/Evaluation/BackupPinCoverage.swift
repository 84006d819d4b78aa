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

    /// The coverage of the union of disjoint groups of targets, from each group's `compute`.
    public static func combine(_ parts: [[BackupPinCoverage]]) -> [BackupPinCoverage] {
        var acc: [String: BackupPinCoverage] = [:]
        for part in parts {
            for c in part {
                let key = c.policySet + "\u{0}" + c.environment
                var sum = acc[key] ?? BackupPinCoverage(policySet: c.policySet, environment: c.environment, evaluated: 0, covered: 0)
                sum.evaluated += c.evaluated
                sum.covered += c.covered
                acc[key] = sum
            }
        }
        return acc.values.sorted { ($0.policySet, $0.environment) < ($1.policySet, $1.environment) }
    }
}
