import Foundation
import PinGuardCore

/// Renders a rotation plan: a table for people, JSON for programs, GitHub workflow annotations and
/// SARIF 2.1.0 for code scanning.
public enum PlanReport {
    /// One row per app x version x environment x host, then one line per host no app pins.
    public static func table(_ verdicts: [PlanVerdict], candidate: ProbeFacts?, unpinned: [String],
                             forecast: PlanForecast? = nil) -> String {
        var text = ""
        if let candidate, let leaf = candidate.servedChain.first {
            text += "candidate leaf: \(leaf.subject), key \(leaf.spkiSHA256), expires \(RFC3339.format(leaf.notAfter))\n"
        }
        let rows = verdicts.map { v -> [String] in
            let pins = v.evaluation.matchedPins.map { "\($0.pin.type.rawValue):\($0.pin.hash.prefix(12))…(\($0.pin.role.rawValue))" }
            return [v.host, v.policySet + (v.version.map { " \($0)" } ?? ""), v.environment, v.evaluation.verdict.rawValue.uppercased(),
                    v.evaluation.reason.rawValue, pins.isEmpty ? "-" : pins.joined(separator: ", "),
                    v.keepsReservePin ? "yes (\(v.evaluation.reservePins.count))" : "NO"]
        }
        text += TextTable.render(header: ["host", "app", "environment", "verdict", "reason", "matched pins", "reserve pin after"], rows: rows)
        for host in unpinned { text += "\(host): no loaded policy set pins this host\n" }
        let rejects = verdicts.filter { !$0.accepts }
        text += rejects.isEmpty
            ? "every client accepts the candidate (\(verdicts.count) decisions)\n"
            : "\(rejects.count) of \(verdicts.count) decisions reject the candidate: \(Set(rejects.map(\.policySet)).sorted().joined(separator: ", "))\n"
        if let forecast { text += "after the switch, the " + RenewalForecastReport.text(forecast.outlook, forecast.sets) }
        return text
    }

    /// A JSON object: `at`, `candidate` (chain and trust per host) and `verdicts`.
    public static func json(_ verdicts: [PlanVerdict], candidates: [ProbeFacts], unpinned: [String], at time: Date,
                            forecasts: [String: PlanForecast] = [:]) -> String {
        let object: [String: Any] = [
            "at": RFC3339.format(time),
            "accepted": verdicts.allSatisfy(\.accepts),
            "unpinned_hosts": unpinned,
            "candidates": candidates.map { c -> [String: Any] in
                ["host": c.host, "trusted": c.trusted, "trust_error": c.trustError ?? NSNull(),
                 "forecast": forecasts[c.host].flatMap { RenewalForecastReport.object($0.outlook, $0.sets) } ?? NSNull(),
                 "chain": c.evaluatedChain.map { x -> [String: Any] in
                     ["depth": x.depth, "subject": x.subject, "issuer": x.issuer, "not_before": RFC3339.format(x.notBefore),
                      "not_after": RFC3339.format(x.notAfter), "spki_sha256": x.spkiSHA256, "cert_sha256": x.certSHA256,
                      "source": x.source.rawValue]
                 }]
            },
            "verdicts": verdicts.map { v -> [String: Any] in
                ["host": v.host, "policy_set": v.policySet, "version": v.version ?? NSNull(), "environment": v.environment,
                 "pattern": v.evaluation.pattern ?? NSNull(), "verdict": v.evaluation.verdict.rawValue,
                 "reason": v.evaluation.reason.rawValue,
                 "matched_pins": v.evaluation.matchedPins.map { ["type": $0.pin.type.rawValue, "hash": $0.pin.hash, "role": $0.pin.role.rawValue,
                                                                 "depths": $0.depths] as [String: Any] },
                 "reserve_pins": v.evaluation.reservePins.map(\.hash), "keeps_reserve_pin": v.keepsReservePin,
                 "pin_horizon": v.evaluation.pinHorizon.map(RFC3339.format) ?? NSNull(),
                 "days_to_pin_breakage": v.evaluation.daysToPinBreakage ?? NSNull(),
                 "paths": ProbeReport.pathsObject(v.evaluation),
                 "file": v.file ?? NSNull(), "line": v.line ?? NSNull()]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// GitHub workflow commands: an error per rejecting decision, a warning per accepting decision that
    /// leaves the app without a reserve pin, each at the policy file and line that decided.
    public static func githubAnnotations(_ verdicts: [PlanVerdict]) -> String {
        var text = ""
        for v in verdicts where !v.accepts || !v.keepsReservePin {
            let kind = v.accepts ? "warning" : "error"
            var properties: [String] = []
            if let file = v.file { properties.append("file=\(escapeProperty(file))") }
            if let line = v.line { properties.append("line=\(line)") }
            properties.append("title=\(escapeProperty(title(v)))")
            text += "::\(kind) \(properties.joined(separator: ","))::\(escapeData(message(v)))\n"
        }
        return text
    }

    /// SARIF 2.1.0: rule `pin-plan/reject` (error) and `pin-plan/no-reserve-pin` (warning).
    public static func sarif(_ verdicts: [PlanVerdict], toolVersion: String) -> String {
        let results = verdicts.filter { !$0.accepts || !$0.keepsReservePin }.map { v -> [String: Any] in
            var result: [String: Any] = [
                "ruleId": v.accepts ? "pin-plan/no-reserve-pin" : "pin-plan/reject",
                "level": v.accepts ? "warning" : "error",
                "message": ["text": message(v)],
                "partialFingerprints": ["pinPlan/v1": [v.host, v.policySet, v.version ?? "", v.environment].joined(separator: "|")],
            ]
            if let file = v.file {
                result["locations"] = [["physicalLocation": ["artifactLocation": ["uri": file],
                                                              "region": ["startLine": max(v.line ?? 1, 1)]]]]
            }
            return result
        }
        let rules: [[String: Any]] = [
            ["id": "pin-plan/reject", "name": "CandidateRejected",
             "shortDescription": ["text": "A pinned client rejects the candidate certificate"],
             "help": ["text": "Add the candidate's key (or its CA) as a pin in a released app version before deploying, or deploy a chain an existing pin matches."],
             "defaultConfiguration": ["level": "error"], "properties": ["tags": ["security", "pinning"], "security-severity": "8.0"]],
            ["id": "pin-plan/no-reserve-pin", "name": "NoReservePinAfterSwitch",
             "shortDescription": ["text": "After the switch the app has no pin left to rotate to"],
             "help": ["text": "Ship a backup pin for a key that is not in the served chain (RFC 7469 backup pin)."],
             "defaultConfiguration": ["level": "warning"], "properties": ["tags": ["security", "pinning"], "security-severity": "5.0"]],
        ]
        let log: [String: Any] = [
            "version": "2.1.0",
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": [["tool": ["driver": ["name": "pinguard", "version": toolVersion, "rules": rules]],
                      "results": results]],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func title(_ v: PlanVerdict) -> String {
        "\(v.policySet)\(v.version.map { " \($0)" } ?? "") (\(v.environment)) \(v.accepts ? "keeps no reserve pin" : "rejects") \(v.host)"
    }

    private static func message(_ v: PlanVerdict) -> String {
        let app = "\(v.policySet)\(v.version.map { " \($0)" } ?? "") in \(v.environment)"
        if v.accepts {
            return "\(app) accepts the candidate for \(v.host) (\(v.evaluation.reason.rawValue)) but has no pin left that the candidate does not use."
        }
        return "\(app) rejects the candidate for \(v.host): \(v.evaluation.reason.rawValue)."
    }

    private static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
