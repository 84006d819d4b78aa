import Foundation
import PinGuardCore
import PinGuardReports
import PinGuardReaders

/// The stdout summary of `serve --once`.
public enum OnceSummary {
    /// One line per target, address and policy set, then a totals line.
    public static func render(_ results: [TargetResult], files: [TargetResult] = [], duration: Double) -> String {
        var rows: [[String]] = []
        for r in results {
            for node in r.nodes {
                let f = node.facts
                let probe = f.success ? (f.trusted ? "ok, trusted" : "ok, UNTRUSTED: \(f.trustError ?? "")") : "FAILED: \(f.error ?? "")"
                let address = node.address.ifEmpty("-")
                if node.evaluations.isEmpty {
                    rows.append([r.target.name, address, probe, "-", "-", "policy_missing (no set covers the host)", "-"])
                }
                for e in node.evaluations {
                    rows.append([r.target.name, address, probe, e.policySet + "/" + e.environment, e.verdict.rawValue.uppercased(),
                                 e.reason.rawValue, e.daysToPinBreakage.map { String(format: "%.1f", $0) } ?? "-"])
                }
            }
        }
        let c = counts(results)
        return TextTable.render(header: ["target", "address", "probe", "policy_set", "verdict", "reason", "days_to_pin_breakage"],
                                rows: rows)
            + "\(results.count) targets (\(c.addresses) addresses) in \(String(format: "%.2f", duration))s: \(c.rejects) rejected by a client, \(c.failed) probes failed\n"
            + staged(files)
    }

    /// The chains staged in `files:`, judged as if served: one line per file and policy set.
    static func staged(_ files: [TargetResult]) -> String {
        guard !files.isEmpty else { return "" }
        var rows: [[String]] = []
        for r in files {
            let f = r.facts
            let chain = f.success ? (f.trusted ? "trusted" : "UNTRUSTED: \(f.trustError ?? "")") : "UNREADABLE: \(f.error ?? "")"
            let expiry = f.evaluatedChain.map(\.notAfter).min().map { String(RFC3339.format($0).prefix(10)) } ?? "-"
            if r.evaluations.isEmpty { rows.append([r.target.name, r.target.host, chain, expiry, "-", "-", "-"]) }
            for e in r.evaluations {
                rows.append([r.target.name, r.target.host, chain, expiry, e.policySet + "/" + e.environment,
                             e.verdict.rawValue.uppercased(), e.reason.rawValue])
            }
        }
        return "\nstaged chains in files:, judged as if served:\n"
            + TextTable.render(header: ["file", "host", "chain", "expires", "policy_set", "verdict", "reason"], rows: rows)
    }

    /// Targets rejected by a client on any address, address probes that failed, and addresses probed.
    public static func counts(_ results: [TargetResult]) -> (rejects: Int, failed: Int, addresses: Int) {
        (results.filter { r in r.evaluations.contains { $0.verdict == .reject } }.count,
         results.reduce(0) { $0 + $1.nodes.count { !$0.facts.success } },
         results.reduce(0) { $0 + $1.nodes.count })
    }
}
