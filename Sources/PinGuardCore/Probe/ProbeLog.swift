import Foundation

/// A probe of a target told step by step, as blackbox_exporter's `debug=true` does: the resolution, then per
/// address the connection, the handshake, the chain served, its verification and each set's decision.
public enum ProbeLog {
    /// The log of `r`.
    public static func text(_ r: TargetResult) -> String {
        let t = r.target
        var out = "target \(t.name) (\(t.host):\(t.port)), environment \(t.environment)\n"
        let res = r.resolution
        out += "resolution: \(res.addresses.count) address\(res.addresses.count == 1 ? "" : "es")"
        if !res.addresses.isEmpty { out += " (\(res.addresses.joined(separator: ", ")))" }
        if res.skipped > 0 { out += ", \(res.skipped) skipped (max_addresses)" }
        if let e = res.error { out += ", error: \(e)" }
        out += "\n"
        for node in r.nodes { out += nodeText(node) }
        out += RenewalForecastReport.text(r.outlook, r.forecasts)
        return out
    }

    static func nodeText(_ node: NodeResult) -> String {
        let f = node.facts
        var out = "address \(node.address.isEmpty ? "-" : node.address): "
        guard f.success else { return out + "FAILED after \(String(format: "%.3f", f.duration)) s: \(f.error ?? "no chain")\n" }
        out += "connected, \(f.tlsVersion ?? "TLS ?"), \(String(format: "%.3f", f.duration)) s\n"
        if let h = f.handshakeError { out += "  the chain was received, then the handshake failed: \(h)\n" }
        for c in f.servedChain {
            out += "  served depth \(c.depth): \(c.subject)\n    issuer \(c.issuer), serial \(c.serial)\n"
            out += "    spki \(c.spkiSHA256), certificate \(c.certSHA256)\n"
            out += "    valid \(RFC3339.format(c.notBefore)) to \(RFC3339.format(c.notAfter))\n"
        }
        out += f.trusted ? "  verification: trusted (\(f.verifiedChain.count) certificates to the anchor)\n"
                         : "  verification: NOT trusted: \(f.trustError ?? "unknown")\n"
        out += f.revocationText
        for e in node.evaluations {
            out += "  \(e.policySet)/\(e.environment): \(e.verdict.rawValue.uppercased()) (\(e.reason.rawValue))"
            let matched = e.matchedPins.map { "\($0.pin.hash) (\($0.pin.role.rawValue)) at depth \($0.depths.map(String.init).joined(separator: ","))" }
            out += matched.isEmpty ? "; no pin matches" : "; matched \(matched.joined(separator: "; "))"
            out += "; \(e.reservePins.count) reserve pin\(e.reservePins.count == 1 ? "" : "s")\n"
        }
        return out
    }
}
