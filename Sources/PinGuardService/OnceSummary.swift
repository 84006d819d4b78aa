import Foundation
import PinGuardCore

/// The stdout summary of `serve --once`.
public enum OnceSummary {
    /// One line per target and policy set, then a totals line.
    public static func render(_ results: [TargetResult], duration: Double) -> String {
        var rows: [[String]] = []
        for r in results {
            let probe = r.facts.success ? (r.facts.trusted ? "ok, trusted" : "ok, UNTRUSTED: \(r.facts.trustError ?? "")") : "FAILED: \(r.facts.error ?? "")"
            if r.evaluations.isEmpty {
                rows.append([r.target.name, probe, "-", "-", "policy_missing (no set covers the host)", "-"])
            }
            for e in r.evaluations {
                rows.append([r.target.name, probe, e.policySet + "/" + e.environment, e.verdict.rawValue.uppercased(), e.reason.rawValue,
                             e.daysToPinBreakage.map { String(format: "%.1f", $0) } ?? "-"])
            }
        }
        let rejects = results.filter { r in r.evaluations.contains { $0.verdict == .reject } }.count
        let failed = results.filter { !$0.facts.success }.count
        return TextTable.render(header: ["target", "probe", "policy_set", "verdict", "reason", "days_to_pin_breakage"], rows: rows)
            + "\(results.count) targets in \(String(format: "%.2f", duration))s: \(rejects) rejected by a client, \(failed) probes failed\n"
    }
}
