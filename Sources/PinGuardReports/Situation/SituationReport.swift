import Foundation
import PinGuardCore

/// Situations as `probe` and `plan` show them: JSON objects and text lines.
public enum SituationReport {
    /// `[{"situation", "severity", "policy_set", "environment", "apps", "file", "due", "summary", "action"}]`.
    public static func objects(_ situations: [Situation]) -> [[String: Any]] {
        situations.map { s in
            ["situation": s.kind.rawValue, "severity": s.severity.rawValue, "policy_set": s.policySet,
             "environment": s.environment, "apps": s.apps, "file": s.file,
             "due": s.due.map { RFC3339.format($0) } ?? NSNull(), "summary": s.summary, "action": s.action]
        }
    }

    /// One block per situation, most urgent first: `SEVERITY: summary` then `  what to do: action`; "" when healthy.
    public static func text(_ situations: [Situation]) -> String {
        situations.map { "\($0.severity.rawValue.uppercased()): \($0.summary)\n  what to do: \($0.action)\n" }.joined()
    }
}
