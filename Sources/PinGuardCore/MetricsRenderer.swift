import Foundation

/// Renders a `MetricsSnapshot` in the Prometheus text format 0.0.4, family by family, with HELP and TYPE.
///
/// Written into one byte buffer without intermediate strings per series: /metrics for 10,000 targets is
/// rendered on every scrape.
public enum MetricsRenderer {
    /// The content type of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition bytes.
    public static func render(_ s: MetricsSnapshot) -> [UInt8] {
        var w = ExpositionWriter()
        w.buffer.reserveCapacity(1024 + s.results.count * 2048)
        let results = s.results
        let note = " From the latest scheduled probe."

        w.family("pinguard_probe_success", "gauge", "1 if the last probe retrieved a certificate chain." + note)
        for r in results { w.sample("pinguard_probe_success", [("target", r.target.name)], r.facts.success ? 1 : 0) }
        w.family("pinguard_probe_duration_seconds", "gauge", "Duration of the last probe: resolve, connect and TLS handshake." + note)
        for r in results { w.sample("pinguard_probe_duration_seconds", [("target", r.target.name)], r.facts.duration) }
        w.family("pinguard_probe_timestamp_seconds", "gauge", "Unix time when the last probe of the target finished.")
        for r in results { w.sample("pinguard_probe_timestamp_seconds", [("target", r.target.name)], r.facts.finishedAt) }
        w.family("pinguard_tls_version_info", "gauge", "Negotiated TLS version of the last probe." + note)
        for r in results {
            if let v = r.facts.tlsVersion { w.sample("pinguard_tls_version_info", [("target", r.target.name), ("version", v)], 1) }
        }
        w.family("pinguard_chain_trusted", "gauge", "1 if the chain passed system trust and hostname verification." + note)
        for r in results where r.facts.success {
            w.sample("pinguard_chain_trusted", [("target", r.target.name)], r.facts.trusted ? 1 : 0)
        }
        w.family("pinguard_cert_not_after_timestamp_seconds", "gauge", "notAfter of each certificate of the evaluated chain (kept when verification fails)." + note)
        for r in results {
            for c in r.facts.evaluatedChain {
                w.sample("pinguard_cert_not_after_timestamp_seconds", [("target", r.target.name), ("depth", String(c.depth))], c.notAfter)
            }
        }
        w.family("pinguard_cert_not_before_timestamp_seconds", "gauge", "notBefore of each certificate of the evaluated chain." + note)
        for r in results {
            for c in r.facts.evaluatedChain {
                w.sample("pinguard_cert_not_before_timestamp_seconds", [("target", r.target.name), ("depth", String(c.depth))], c.notBefore)
            }
        }
        w.family("pinguard_cert_info", "gauge", "Certificates of the evaluated chain; source is served or store (trust anchor added from the store)." + note)
        for r in results {
            for c in r.facts.evaluatedChain {
                w.sample("pinguard_cert_info", [("target", r.target.name), ("depth", String(c.depth)), ("subject", c.subject),
                                                 ("issuer", c.issuer), ("serial", c.serial), ("spki_sha256", c.spkiSHA256),
                                                 ("cert_sha256", c.certSHA256), ("source", c.source.rawValue)], 1)
            }
        }
        w.family("pinguard_chain_earliest_expiry_timestamp_seconds", "gauge", "Earliest notAfter of the evaluated chain." + note)
        for r in results {
            if let e = r.facts.evaluatedChain.map(\.notAfter).min() {
                w.sample("pinguard_chain_earliest_expiry_timestamp_seconds", [("target", r.target.name)], e)
            }
        }
        w.family("pinguard_policy_accept", "gauge", "1 if the pinned client of the policy set would accept the chain, 0 if it would reject." + note)
        for r in results {
            for e in r.evaluations where e.verdict != .none {
                w.sample("pinguard_policy_accept", [("target", r.target.name), ("policy_set", e.policySet), ("environment", e.environment)],
                         e.verdict == .accept ? 1 : 0)
            }
        }
        w.family("pinguard_policy_decision_info", "gauge", "Why the pinned client decided as it did (SPEC reasons)." + note)
        for r in results {
            for e in r.evaluations {
                w.sample("pinguard_policy_decision_info", [("target", r.target.name), ("policy_set", e.policySet),
                                                           ("environment", e.environment), ("reason", e.reason.rawValue)], 1)
            }
        }
        w.family("pinguard_pin_matched", "gauge", "1 if the configured pin matches the evaluated chain within its scope, else 0; one series per configured pin." + note)
        for r in results {
            for e in r.evaluations where r.facts.success {
                guard let pins = e.policy?.pins else { continue }
                let matched = Set(e.matchedPins.map(\.pin))
                var seen = Set<String>()
                for p in pins {
                    let key = "\(p.hash)|\(p.role)|\(p.type)|\(p.scope)"
                    guard seen.insert(key).inserted else { continue }
                    w.sample("pinguard_pin_matched", [("target", r.target.name), ("policy_set", e.policySet), ("pin", p.hash),
                                                      ("role", p.role.rawValue), ("type", p.type.rawValue), ("scope", p.scope.rawValue)],
                             matched.contains(p) ? 1 : 0)
                }
            }
        }
        w.family("pinguard_pin_horizon_timestamp_seconds", "gauge", "Pin horizon: latest notAfter among the certificates that today's matching pins match; after it those pins stop matching. Conservative for spki pins (a renewal that keeps the key keeps matching)." + note)
        for r in results {
            for e in r.evaluations {
                if let h = e.pinHorizon {
                    w.sample("pinguard_pin_horizon_timestamp_seconds", [("target", r.target.name), ("policy_set", e.policySet)], h)
                }
            }
        }
        w.family("pinguard_reserve_pins", "gauge", "Configured pins that match no certificate of the chain: keys to rotate to (RFC 7469 backup pins)." + note)
        for r in results {
            for e in r.evaluations where e.isEvaluated {
                w.sample("pinguard_reserve_pins", [("target", r.target.name), ("policy_set", e.policySet)], Double(e.reservePins.count))
            }
        }
        w.family("pinguard_pin_set_expiry_timestamp_seconds", "gauge", "When the pin set stops being enforced (policy expires)." + note)
        for r in results {
            for e in r.evaluations {
                if let x = e.policy?.expires {
                    w.sample("pinguard_pin_set_expiry_timestamp_seconds", [("target", r.target.name), ("policy_set", e.policySet)], x)
                }
            }
        }
        w.family("pinguard_backup_pin_coverage_ratio", "gauge", "Share of evaluated targets of the policy set that have at least one reserve pin." + note)
        for c in BackupPinCoverage.compute(results) {
            if let ratio = c.ratio {
                w.sample("pinguard_backup_pin_coverage_ratio", [("policy_set", c.policySet), ("environment", c.environment)], ratio)
            }
        }
        w.family("pinguard_policy_lint_findings", "gauge", "Findings of pinguard lint on the loaded policies, by severity.")
        for l in s.lintFindings {
            w.sample("pinguard_policy_lint_findings", [("policy_set", l.policySet), ("severity", l.severity)], Double(l.count))
        }
        w.family("pinguard_build_info", "gauge", "pinguard and OpenSSL versions.")
        w.sample("pinguard_build_info", [("version", s.version), ("openssl_version", s.openSSLVersion)], 1)
        w.family("pinguard_config_last_reload_successful", "gauge", "1 if the last configuration (re)load succeeded.")
        w.sample("pinguard_config_last_reload_successful", [], s.lastReloadSuccessful ? 1 : 0)
        w.family("pinguard_config_last_reload_success_timestamp_seconds", "gauge", "When the configuration was last loaded successfully.")
        if let t = s.lastReloadSuccess { w.sample("pinguard_config_last_reload_success_timestamp_seconds", [], t) }
        w.family("pinguard_targets", "gauge", "Configured targets.")
        w.sample("pinguard_targets", [], Double(s.targets))
        w.family("pinguard_probes_total", "counter", "Probes run since start.")
        w.sample("pinguard_probes_total", [], Double(s.probesTotal))
        w.family("pinguard_probe_failures_total", "counter", "Probes that retrieved no chain since start.")
        w.sample("pinguard_probe_failures_total", [], Double(s.probeFailuresTotal))
        w.family("pinguard_journal_write_failures_total", "counter", "Journal events that could not be written (no journald socket, journal full).")
        w.sample("pinguard_journal_write_failures_total", [], Double(s.journalFailuresTotal))
        w.family("pinguard_round_duration_seconds", "gauge", "Duration of the last complete probe round.")
        if let d = s.roundDuration { w.sample("pinguard_round_duration_seconds", [], d) }
        w.family("pinguard_round_timestamp_seconds", "gauge", "When the last probe round finished.")
        if let t = s.roundTimestamp { w.sample("pinguard_round_timestamp_seconds", [], t) }
        return w.buffer
    }
}

/// Appends exposition lines to a byte buffer, escaping label values.
struct ExpositionWriter {
    var buffer: [UInt8] = []

    mutating func family(_ name: String, _ type: String, _ help: String) {
        append("# HELP "); append(name); append(" "); appendEscaped(help, quotes: false); append("\n")
        append("# TYPE "); append(name); append(" "); append(type); append("\n")
    }

    mutating func sample(_ name: String, _ labels: [(String, String)], _ date: Date) {
        sample(name, labels, date.timeIntervalSince1970)
    }

    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        append(name)
        if !labels.isEmpty {
            buffer.append(UInt8(ascii: "{"))
            for (i, (k, v)) in labels.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                append(k); append("=\""); appendEscaped(v, quotes: true); buffer.append(UInt8(ascii: "\""))
            }
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: " "))
        if value == value.rounded(), abs(value) < 1e15 {
            append(String(Int64(value)))
        } else if value.isNaN {
            append("NaN")
        } else {
            append(String(value))
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    mutating func append(_ s: String) { buffer.append(contentsOf: s.utf8) }

    mutating func appendEscaped(_ s: String, quotes: Bool) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(b)
            case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\"") where quotes: buffer.append(UInt8(ascii: "\\")); buffer.append(b)
            default: buffer.append(b)
            }
        }
    }
}
