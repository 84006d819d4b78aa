import Foundation

/// Renders a `MetricsSnapshot` in the Prometheus text format 0.0.4, family by family, with HELP and TYPE.
///
/// /metrics for 10,000 targets is rendered on every scrape, so the targets are walked once (not once per
/// family) and each family is written into its own byte buffer without intermediate strings per series;
/// the buffers, in family order, are the exposition.
public enum MetricsRenderer {
    /// The content type of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition bytes.
    public static func render(_ s: MetricsSnapshot) -> [UInt8] {
        var out: [UInt8] = []
        let chunks = renderChunks(s)
        out.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for c in chunks { out.append(contentsOf: c) }
        return out
    }

    /// The exposition as consecutive chunks (one or more families each), to be sent in order.
    public static func renderChunks(_ s: MetricsSnapshot) -> [[UInt8]] {
        let n = s.results.count
        // Generous per-target estimates: capacity that is never written costs address space, not memory,
        // while a buffer that has to grow holds its old and new copies at once.
        let note = " From the latest scheduled probe."
        var success = ExpositionWriter(n * 96, "pinguard_probe_success", "gauge", "1 if the last probe retrieved a certificate chain." + note)
        var duration = ExpositionWriter(n * 128, "pinguard_probe_duration_seconds", "gauge", "Duration of the last probe: resolve, connect and TLS handshake." + note)
        var timestamp = ExpositionWriter(n * 128, "pinguard_probe_timestamp_seconds", "gauge", "Unix time when the last probe of the target finished.")
        var tls = ExpositionWriter(n * 128, "pinguard_tls_version_info", "gauge", "Negotiated TLS version of the last probe." + note)
        var trusted = ExpositionWriter(n * 96, "pinguard_chain_trusted", "gauge", "1 if the chain passed system trust and hostname verification." + note)
        var notAfter = ExpositionWriter(n * 512, "pinguard_cert_not_after_timestamp_seconds", "gauge", "notAfter of each certificate of the evaluated chain (kept when verification fails)." + note)
        var notBefore = ExpositionWriter(n * 512, "pinguard_cert_not_before_timestamp_seconds", "gauge", "notBefore of each certificate of the evaluated chain." + note)
        var certInfo = ExpositionWriter(n * 1600, "pinguard_cert_info", "gauge", "Certificates of the evaluated chain; source is served or store (trust anchor added from the store)." + note)
        var earliest = ExpositionWriter(n * 160, "pinguard_chain_earliest_expiry_timestamp_seconds", "gauge", "Earliest notAfter of the evaluated chain." + note)
        var accept = ExpositionWriter(n * 320, "pinguard_policy_accept", "gauge", "1 if the pinned client of the policy set would accept the chain, 0 if it would reject." + note)
        var decision = ExpositionWriter(n * 400, "pinguard_policy_decision_info", "gauge", "Why the pinned client decided as it did (SPEC reasons)." + note)
        var pinMatched = ExpositionWriter(n * 1200, "pinguard_pin_matched", "gauge", "1 if the configured pin matches the evaluated chain within its scope, else 0; one series per configured pin." + note)
        var horizon = ExpositionWriter(n * 384, "pinguard_pin_horizon_timestamp_seconds", "gauge", "Pin horizon: latest notAfter among the certificates that today's matching pins match; after it those pins stop matching. Conservative for spki pins (a renewal that keeps the key keeps matching)." + note)
        var reserve = ExpositionWriter(n * 256, "pinguard_reserve_pins", "gauge", "Configured pins that match no certificate of the chain: keys to rotate to (RFC 7469 backup pins)." + note)
        var pinSetExpiry = ExpositionWriter(1024, "pinguard_pin_set_expiry_timestamp_seconds", "gauge", "When the pin set stops being enforced (policy expires)." + note)

        for r in s.results {
            let name = r.target.name
            let facts = r.facts
            success.begin("pinguard_probe_success"); success.label("target", name); success.end(facts.success ? 1 : 0)
            duration.begin("pinguard_probe_duration_seconds"); duration.label("target", name); duration.end(facts.duration)
            timestamp.begin("pinguard_probe_timestamp_seconds"); timestamp.label("target", name); timestamp.end(facts.finishedAt)
            if let v = facts.tlsVersion {
                tls.begin("pinguard_tls_version_info"); tls.label("target", name); tls.label("version", v); tls.end(1)
            }
            if facts.success {
                trusted.begin("pinguard_chain_trusted"); trusted.label("target", name); trusted.end(facts.trusted ? 1 : 0)
            }
            let chain = facts.evaluatedChain
            var earliestExpiry: Date?
            for c in chain {
                notAfter.begin("pinguard_cert_not_after_timestamp_seconds"); notAfter.label("target", name)
                notAfter.label("depth", c.depth); notAfter.end(c.notAfter)
                notBefore.begin("pinguard_cert_not_before_timestamp_seconds"); notBefore.label("target", name)
                notBefore.label("depth", c.depth); notBefore.end(c.notBefore)
                certInfo.begin("pinguard_cert_info"); certInfo.label("target", name); certInfo.label("depth", c.depth)
                certInfo.label("subject", c.subject); certInfo.label("issuer", c.issuer); certInfo.label("serial", c.serial)
                certInfo.label("spki_sha256", c.spkiSHA256); certInfo.label("cert_sha256", c.certSHA256)
                certInfo.label("source", c.source.rawValue); certInfo.end(1)
                earliestExpiry = min(earliestExpiry ?? c.notAfter, c.notAfter)
            }
            if let e = earliestExpiry {
                earliest.begin("pinguard_chain_earliest_expiry_timestamp_seconds"); earliest.label("target", name); earliest.end(e)
            }
            for e in r.evaluations {
                if e.verdict != .none {
                    accept.begin("pinguard_policy_accept"); accept.label("target", name); accept.label("policy_set", e.policySet)
                    accept.label("environment", e.environment); accept.end(e.verdict == .accept ? 1 : 0)
                }
                decision.begin("pinguard_policy_decision_info"); decision.label("target", name); decision.label("policy_set", e.policySet)
                decision.label("environment", e.environment); decision.label("reason", e.reason.rawValue); decision.end(1)
                if facts.success, let pins = e.policy?.pins {
                    for (i, p) in pins.enumerated() {
                        // Pins differing only in `group` would give the same series: emit the first.
                        if pins[..<i].contains(where: { $0.hash == p.hash && $0.role == p.role && $0.type == p.type && $0.scope == p.scope }) {
                            continue
                        }
                        pinMatched.begin("pinguard_pin_matched"); pinMatched.label("target", name); pinMatched.label("policy_set", e.policySet)
                        pinMatched.label("pin", p.hash); pinMatched.label("role", p.role.rawValue); pinMatched.label("type", p.type.rawValue)
                        pinMatched.label("scope", p.scope.rawValue); pinMatched.end(e.matchedPins.contains { $0.pin == p } ? 1 : 0)
                    }
                }
                if let h = e.pinHorizon {
                    horizon.begin("pinguard_pin_horizon_timestamp_seconds"); horizon.label("target", name)
                    horizon.label("policy_set", e.policySet); horizon.end(h)
                }
                if e.isEvaluated {
                    reserve.begin("pinguard_reserve_pins"); reserve.label("target", name); reserve.label("policy_set", e.policySet)
                    reserve.end(Double(e.reservePins.count))
                }
                if let x = e.policy?.expires {
                    pinSetExpiry.begin("pinguard_pin_set_expiry_timestamp_seconds"); pinSetExpiry.label("target", name)
                    pinSetExpiry.label("policy_set", e.policySet); pinSetExpiry.end(x)
                }
            }
        }

        var w = ExpositionWriter(4096 + s.lintFindings.count * 100, "pinguard_backup_pin_coverage_ratio", "gauge", "Share of evaluated targets of the policy set that have at least one reserve pin." + note)
        for c in BackupPinCoverage.compute(s.results) {
            if let ratio = c.ratio {
                w.begin("pinguard_backup_pin_coverage_ratio"); w.label("policy_set", c.policySet); w.label("environment", c.environment); w.end(ratio)
            }
        }
        w.family("pinguard_policy_lint_findings", "gauge", "Findings of pinguard lint on the loaded policies, by severity.")
        for l in s.lintFindings {
            w.begin("pinguard_policy_lint_findings"); w.label("policy_set", l.policySet); w.label("severity", l.severity); w.end(Double(l.count))
        }
        w.family("pinguard_build_info", "gauge", "pinguard and OpenSSL versions.")
        w.begin("pinguard_build_info"); w.label("version", s.version); w.label("openssl_version", s.openSSLVersion); w.end(1)
        w.family("pinguard_config_last_reload_successful", "gauge", "1 if the last configuration (re)load succeeded.")
        w.begin("pinguard_config_last_reload_successful"); w.end(s.lastReloadSuccessful ? 1 : 0)
        w.family("pinguard_config_last_reload_success_timestamp_seconds", "gauge", "When the configuration was last loaded successfully.")
        if let t = s.lastReloadSuccess { w.begin("pinguard_config_last_reload_success_timestamp_seconds"); w.end(t) }
        w.family("pinguard_targets", "gauge", "Configured targets.")
        w.begin("pinguard_targets"); w.end(Double(s.targets))
        w.family("pinguard_probes_total", "counter", "Probes run since start.")
        w.begin("pinguard_probes_total"); w.end(Double(s.probesTotal))
        w.family("pinguard_probe_failures_total", "counter", "Probes that retrieved no chain since start.")
        w.begin("pinguard_probe_failures_total"); w.end(Double(s.probeFailuresTotal))
        w.family("pinguard_journal_write_failures_total", "counter", "Journal events that could not be written (no journald socket, journal full).")
        w.begin("pinguard_journal_write_failures_total"); w.end(Double(s.journalFailuresTotal))
        w.family("pinguard_round_duration_seconds", "gauge", "Duration of the last complete probe round.")
        if let d = s.roundDuration { w.begin("pinguard_round_duration_seconds"); w.end(d) }
        w.family("pinguard_round_timestamp_seconds", "gauge", "When the last probe round finished.")
        if let t = s.roundTimestamp { w.begin("pinguard_round_timestamp_seconds"); w.end(t) }

        return [success, duration, timestamp, tls, trusted, notAfter, notBefore, certInfo, earliest, accept, decision,
                pinMatched, horizon, reserve, pinSetExpiry, w].map(\.buffer)
    }
}

/// Appends exposition lines to a byte buffer: `begin(name)`, `label(k, v)`…, `end(value)`.
struct ExpositionWriter {
    var buffer: [UInt8] = []
    private var labels = 0

    /// A writer with room for `capacity` bytes that starts with the HELP and TYPE lines of one family.
    init(_ capacity: Int, _ name: StaticString, _ type: StaticString, _ help: String) {
        buffer.reserveCapacity(capacity + 512)
        family(name, type, help)
    }

    mutating func family(_ name: StaticString, _ type: StaticString, _ help: String) {
        append("# HELP "); append(name); append(" "); appendEscaped(help, quotes: false); append("\n")
        append("# TYPE "); append(name); append(" "); append(type); append("\n")
    }

    mutating func begin(_ name: StaticString) {
        append(name)
        labels = 0
    }

    mutating func label(_ key: StaticString, _ value: String) {
        buffer.append(labels == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        labels += 1
        append(key)
        buffer.append(UInt8(ascii: "=")); buffer.append(UInt8(ascii: "\""))
        appendEscaped(value, quotes: true)
        buffer.append(UInt8(ascii: "\""))
    }

    mutating func label(_ key: StaticString, _ value: Int) {
        buffer.append(labels == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        labels += 1
        append(key)
        buffer.append(UInt8(ascii: "=")); buffer.append(UInt8(ascii: "\""))
        appendInteger(Int64(value))
        buffer.append(UInt8(ascii: "\""))
    }

    mutating func end(_ date: Date) { end(date.timeIntervalSince1970) }

    mutating func end(_ value: Double) {
        if labels > 0 { buffer.append(UInt8(ascii: "}")) }
        buffer.append(UInt8(ascii: " "))
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else if value.isNaN {
            append("NaN")
        } else if value.isInfinite {
            append(value > 0 ? "+Inf" : "-Inf")
        } else {
            buffer.append(contentsOf: String(value).utf8)
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func appendInteger(_ v: Int64) {
        if v < 0 { buffer.append(UInt8(ascii: "-")) }
        var n = v.magnitude
        if n < 10 { buffer.append(UInt8(ascii: "0") + UInt8(n)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(d[i]) }
        }
    }

    mutating func appendEscaped(_ s: String, quotes: Bool) {
        var s = s
        s.withUTF8 { bytes in
            // Fast path: most values need no escaping and are copied in one go.
            if !bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") || (quotes && $0 == UInt8(ascii: "\"")) }) {
                buffer.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                switch b {
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(b)
                case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\"") where quotes: buffer.append(UInt8(ascii: "\\")); buffer.append(b)
                default: buffer.append(b)
                }
            }
        }
    }
}
