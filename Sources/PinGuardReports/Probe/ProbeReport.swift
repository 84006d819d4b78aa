import Foundation
import PinGuardCore

/// Renders one probe of a target and its evaluations for people (a table) or programs (the JSON of
/// docs/reference.md, probe --json): every address the target resolved to, and the worst case over them.
public struct ProbeReport: Sendable {
    /// Target label (`name`, default `host:port`).
    public var target: String
    /// The probed target: resolution, one node per address, worst-case evaluations.
    public var result: TargetResult

    /// Creates a report of `result`, labelled `target`.
    public init(target: String, result: TargetResult) {
        self.target = target
        self.result = result
    }

    /// The probe that stands for the target (the worst address's).
    public var facts: ProbeFacts { result.facts }
    /// Worst-case decisions over the addresses.
    public var evaluations: [Evaluation] { result.evaluations }

    /// 0 when every client accepts on every address (or, without policies, every chain is trusted); 1 on
    /// any reject or failed probe.
    public var exitStatus: Int32 {
        guard result.allNodesReached else { return 1 }
        if result.nodes.allSatisfy({ $0.evaluations.isEmpty }) { return result.nodes.allSatisfy(\.facts.trusted) ? 0 : 1 }
        return result.allAccept ? 0 : 1
    }

    /// The JSON object of docs/reference.md, probe --json, pretty-printed with sorted keys.
    public func json() -> String {
        var object = Self.nodeObject(NodeResult(facts: facts, evaluations: evaluations))
        object["target"] = target
        object["host"] = facts.host
        object["port"] = facts.port
        object["addresses"] = result.nodes.map { Self.nodeObject($0) }
        object["resolution"] = [
            "addresses": result.resolution.addresses,
            "skipped": result.resolution.skipped,
            "error": result.resolution.error ?? NSNull(),
        ] as [String: Any]
        object["distinct_chains"] = WorstCase.distinctChains(result.nodes)
        object["forecast"] = RenewalForecastReport.object(result.outlook, result.forecasts) ?? NSNull()
        object["situations"] = SituationReport.objects(SituationAssessor.assess(result, now: result.finishedAt, journal: false))
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One address: the probe, its chain and its evaluations.
    static func nodeObject(_ node: NodeResult) -> [String: Any] {
        let facts = node.facts
        return [
            "address": facts.address ?? NSNull(),
            "probe": [
                "success": facts.success,
                "error": facts.error ?? NSNull(),
                "handshake_error": facts.handshakeError ?? NSNull(),
                "duration_seconds": (facts.duration * 1e6).rounded() / 1e6,
                "tls_version": facts.tlsVersion ?? NSNull(),
                "tls_cipher": facts.tlsCipher ?? NSNull(),
                "tls_group": facts.tlsGroup ?? NSNull(),
                "finished_at": RFC3339.format(facts.finishedAt),
            ] as [String: Any],
            "chain": facts.evaluatedChain.map(Self.certificateObject),
            "served_chain_length": facts.servedChain.count,
            "trusted": facts.trusted,
            "trust_error": facts.trustError ?? NSNull(),
            "evaluations": node.evaluations.map(Self.evaluationObject),
            "ct": Self.ctObject(facts.ct),
            "revocation": facts.revocation.map(\.jsonObject),
            "client_auth": [
                "requested": facts.clientAuth.requested,
                "presented": facts.clientAuth.presented,
                "certificate_subject": facts.clientAuth.certificateSubject ?? NSNull(),
                "certificate_not_after": facts.clientAuth.certificateNotAfter.map(RFC3339.format) ?? NSNull(),
            ] as [String: Any],
        ]
    }

    static func certificateObject(_ c: ChainCertificate) -> [String: Any] {
        ["depth": c.depth, "subject": c.subject, "issuer": c.issuer, "serial": c.serial,
         "not_before": RFC3339.format(c.notBefore), "not_after": RFC3339.format(c.notAfter),
         "spki_sha256": c.spkiSHA256, "cert_sha256": c.certSHA256, "key_type": c.keyType,
         "source": c.source.rawValue, "crl_distribution_points": c.crlDistributionPoints]
    }

    static func pinObject(_ p: Pin) -> [String: Any] {
        var o: [String: Any] = ["type": p.type.rawValue, "hash": p.hash, "role": p.role.rawValue, "scope": p.scope.rawValue]
        if p.algorithm != .sha256 { o["algorithm"] = p.algorithm.rawValue }
        if let g = p.group { o["group"] = g }
        return o
    }

    static func evaluationObject(_ e: Evaluation) -> [String: Any] {
        func num(_ d: Double?) -> Any { d.map { ($0 * 1000).rounded() / 1000 } ?? NSNull() }
        return [
            "policy_set": e.policySet, "environment": e.environment, "pattern": e.pattern ?? NSNull(),
            "verdict": e.verdict.rawValue, "reason": e.reason.rawValue,
            "matched_pins": e.matchedPins.map { m -> [String: Any] in
                var o = pinObject(m.pin)
                o["depths"] = m.depths
                return o
            },
            "reserve_pins": e.reservePins.count,
            "reserve_pin_list": e.reservePins.map(pinObject),
            "backup_in_use": e.backupInUse,
            "pin_horizon": e.pinHorizon.map(RFC3339.format) ?? NSNull(),
            "pin_set_expires": e.policy?.expires.map(RFC3339.format) ?? NSNull(),
            "days_to_pin_breakage": num(e.daysToPinBreakage),
            "days_to_expiry": num(e.daysToExpiry),
            "ct": evaluationCTObject(e),
            "raw_key_pins": e.rawKeyPins.map { r -> [String: Any] in
                ["pin": r.pin.hash, "depth": r.depth, "subject": r.subject, "spki_sha256": r.spkiSHA256]
            },
            "paths": pathsObject(e),
        ]
    }

    /// A table for people: each address (probe, trust, chain, verdicts), then with several addresses the
    /// worst case over them.
    public func text() -> String {
        var out = "target   \(target)"
        let nodes = result.nodes
        if nodes.count == 1, let a = facts.address { out += "  (\(a))" }
        out += "\n"
        if nodes.count > 1 || result.resolution.skipped > 0 {
            out += "addresses \(result.resolution.addresses.count) resolved, \(nodes.count) probed"
            if result.resolution.skipped > 0 { out += ", \(result.resolution.skipped) skipped (max_addresses)" }
            let chains = WorstCase.distinctChains(nodes)
            out += chains > 1 ? "; \(chains) DIFFERENT chains served\n" : "\n"
        }
        for node in nodes {
            if nodes.count > 1 { out += "\naddress  \(node.address.ifEmpty("-"))\n" }
            out += Self.nodeText(node.facts)
            if nodes.count > 1 {
                out += Self.evaluationsText(node.evaluations, footnote: false)
            }
        }
        if nodes.count > 1 { out += "\nworst case over \(nodes.count) addresses (a client may land on any):\n" }
        out += Self.evaluationsText(evaluations, footnote: true)
        return out + RenewalForecastReport.text(result.outlook, result.forecasts)
            + SituationReport.text(SituationAssessor.assess(result, now: result.finishedAt, journal: false))
    }

    static func nodeText(_ facts: ProbeFacts) -> String {
        var out = ""
        if let err = facts.error {
            out += "probe    FAILED after \(String(format: "%.3f", facts.duration))s: \(err)\n"
        } else {
            out += "probe    ok, \(facts.tlsVersion ?? "?"), \(String(format: "%.3f", facts.duration))s\n"
            if let h = facts.handshakeError { out += "         chain received, then the handshake failed: \(h)\n" }
        }
        let c = facts.clientAuth
        if c.requested || c.identityConfigured {
            let sent = c.presented ? "sent \(c.certificateSubject ?? "?")" : (c.requested ? "NONE sent" : "not asked for")
            out += "client certificate: \(c.requested ? "requested by the server, " : "")\(sent)"
                + (c.certificateNotAfter.map { ", not_after \(RFC3339.format($0))" } ?? "") + "\n"
        }
        if facts.success {
            out += "trusted  " + (facts.trusted ? "yes" : "NO: \(facts.trustError ?? "unknown")") + "\n"
            out += "chain (\(facts.trusted ? "verified, with trust anchor" : "as served")):\n"
            let rows = facts.evaluatedChain.map { c in
                [String(c.depth), c.source.rawValue, c.keyType, RFC3339.format(c.notAfter), c.spkiSHA256, c.subject]
            }
            out += TextTable.render(header: ["depth", "source", "key", "not_after", "spki_sha256", "subject"], rows: rows)
            out += ctText(facts)
            out += facts.revocationText
        }
        return out
    }

    static func evaluationsText(_ evaluations: [Evaluation], footnote: Bool) -> String {
        guard !evaluations.isEmpty else { return "policies: none cover this host\n" }
        var out = "evaluations:\n"
        let rows = evaluations.map { e in
            [e.policySet, e.environment, e.pattern ?? "-", e.verdict.rawValue.uppercased(), e.reason.rawValue,
             e.matchedPins.map { "\($0.pin.role.rawValue):\($0.pin.hash.prefix(12))…" }.joined(separator: " ").ifEmpty("-"),
             String(e.reservePins.count),
             e.daysToPinBreakage.map { String(format: "%.1f", $0) } ?? "-",
             e.daysToExpiry.map { String(format: "%.1f", $0) } ?? "-"]
        }
        out += TextTable.render(header: ["policy_set", "env", "pattern", "verdict", "reason", "matched",
                                         "reserve", "days_to_pin_breakage", "days_to_expiry"], rows: rows)
        for e in evaluations {
            for r in e.rawKeyPins { out += "raw-key pin: \(e.policySet)/\(e.environment): \(r.message)\n" }
        }
        out += pathsText(evaluations)
        out += ctEvaluationsText(evaluations)
        if footnote { out += "(days to pin breakage is conservative for spki pins: a renewal that keeps the key keeps matching)\n" }
        return out
    }
}

extension String {
    /// `fallback` when the string is empty, else the string.
    public func ifEmpty(_ fallback: String) -> String { isEmpty ? fallback : self }
}
