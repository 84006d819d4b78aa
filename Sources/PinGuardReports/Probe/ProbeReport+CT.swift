import Foundation
import PinGuardCore

extension ProbeReport {
    /// `ct` of an address in `probe --json`: the SCTs and each policy's verdict; null while CT is not collected.
    static func ctObject(_ ct: CTObservation) -> Any {
        guard ct.collected else { return NSNull() }
        var policies: [String: Any] = [:]
        for (kind, j) in ct.judgements {
            policies[kind.rawValue] = ["compliant": j.compliant, "enforced": j.enforced, "reason": j.reason,
                                       "qualifying_logs": j.qualifyingLogs, "operators": j.operators] as [String: Any]
        }
        return [
            "publicly_anchored": ct.publiclyAnchored,
            "scts": ct.scts.map { s -> [String: Any] in
                ["log_id": s.logID, "timestamp": RFC3339.format(s.timestamp), "source": s.source.rawValue, "status": s.status.rawValue]
            },
            "policies": policies,
        ] as [String: Any]
    }

    /// `ct` of an evaluation in `probe --json`: the client and its policy's verdict; null when not judged.
    static func evaluationCTObject(_ e: Evaluation) -> Any {
        guard let j = e.ct, let client = e.ctClient else { return NSNull() }
        return ["client": client.rawValue, "compliant": j.compliant, "enforced": j.enforced, "reason": j.reason] as [String: Any]
    }

    /// The SCT lines of an address in the table: counts by source and status, and where the chain is exempt.
    static func ctText(_ facts: ProbeFacts) -> String {
        let ct = facts.ct
        guard ct.collected, facts.success else { return "" }
        var parts: [String] = []
        for source in SCTSource.allCases {
            let found = ct.scts.filter { $0.source == source }
            guard !found.isEmpty else { continue }
            let valid = found.count { $0.status == .valid }
            parts.append("\(source.rawValue) \(valid) valid" + (valid < found.count ? " of \(found.count)" : ""))
        }
        var out = "scts     " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
        if !ct.publiclyAnchored { out += " (not anchored in a public root: CT does not apply)" }
        return out + "\n"
    }

    /// One line per evaluation whose client's CT policy fails or is not enforced.
    static func ctEvaluationsText(_ evaluations: [Evaluation]) -> String {
        var out = ""
        for e in evaluations {
            guard let j = e.ct, let client = e.ctClient, !j.compliant || !j.enforced else { continue }
            out += "ct: \(e.policySet)/\(e.environment) (\(client.rawValue)): \(j.reason)\n"
        }
        return out
    }
}
