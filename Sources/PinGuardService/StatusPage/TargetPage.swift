import Foundation
import PinGuardCore

/// `GET /targets/NAME`: one target for people: its addresses, the chain each served, which pins matched and
/// where, the forecast of its next renewal, its renewals, and the last probe's log.
enum TargetPage {
    /// The page of `r` (and what the memory knows of it).
    static func render(_ r: TargetResult, memory: TargetMemoryFacts?) -> String {
        let e = StatusPage.escape
        var html = StatusPage.head + "<p><a href=\"/\">all targets</a></p>\n<h1>\(e(r.target.name))</h1>\n"
        html += "<p>\(e(r.target.host)):\(r.target.port), environment \(e(r.target.environment))</p>\n"
        html += Timeline.svg(r, now: r.finishedAt)
        let situations = SituationAssessor.assess(r, now: r.finishedAt)
        if !situations.isEmpty {
            html += "<h2>Problems</h2>\n<table><tr><th>severity</th><th>what is wrong</th><th>what to do</th></tr>\n"
            for s in situations {
                html += "<tr class=\"\(s.severity.rawValue)\"><td>\(s.severity.rawValue)</td><td>\(e(s.summary))</td><td class=\"todo\">\(e(s.action))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if let w = r.outlook?.window { html += window(w) }
        html += "<h2>Decisions</h2>\n<table><tr><th>app</th><th>verdict</th><th>reason</th><th>matched pins</th><th>reserve pins</th></tr>\n"
        for d in r.evaluations {
            let matched = d.matchedPins.map { "<code>\(e($0.pin.hash))</code> (\(e($0.pin.role.rawValue)), depth \($0.depths.map(String.init).joined(separator: ",")))" }
            html += "<tr><td>\(e(d.policySet + "/" + d.environment))</td><td>\(StatusPage.verdictCell(d))</td><td>\(e(d.reason.rawValue))</td>"
                + "<td>\(matched.isEmpty ? "-" : matched.joined(separator: "<br>"))</td><td>\(d.reservePins.count)</td></tr>\n"
        }
        html += "</table>\n"
        for node in r.nodes { html += chain(node) }
        if let m = memory, m.renewals.renewals > 0 {
            html += "<h2>Renewals</h2>\n<p>\(m.renewals.renewals) observed; the last \(m.renewals.lastKeyReused ? "kept the key" : "brought a new key")"
                + (m.renewals.lastIssuerChanged ? " and changed the issuer" : "") + ".</p>\n"
        }
        html += "<h2>Last probe</h2>\n<pre>\(e(ProbeLog.text(r)))</pre>\n"
        return html + "</body></html>\n"
    }

    /// The CA's renewal window for the served leaf (ACME Renewal Information).
    static func window(_ w: RenewalWindow) -> String {
        let e = StatusPage.escape
        let explained = w.explanationURL.map { " The CA explains: <a href=\"\(e($0))\">\(e($0))</a>." } ?? ""
        return "<h2>Renewal window</h2>\n<p>The CA suggests renewing between \(e(RFC3339.format(w.start))) and \(e(RFC3339.format(w.end))) "
            + "(ACME Renewal Information); the forecast's next renewal is its start.\(explained)</p>\n"
    }

    /// One address and the chain it served.
    static func chain(_ node: NodeResult) -> String {
        let e = StatusPage.escape
        var html = "<h2>Address \(e(node.address.isEmpty ? "-" : node.address))</h2>\n"
        guard node.facts.success else { return html + "<p class=\"reject\">probe failed: \(e(node.facts.error ?? "no chain"))</p>\n" }
        html += "<table><tr><th>depth</th><th>subject</th><th>issuer</th><th>SPKI SHA-256</th><th>valid from</th><th>to</th><th>revocation (CRL)</th></tr>\n"
        for c in node.facts.evaluatedChain {
            html += "<tr><td>\(c.depth)</td><td>\(e(c.subject))</td><td>\(e(c.issuer))</td><td><code>\(e(c.spkiSHA256))</code></td>"
                + "<td>\(e(RFC3339.format(c.notBefore)))</td><td>\(e(RFC3339.format(c.notAfter)))</td>"
                + revocationCell(node.facts.revocation.first { $0.depth == c.depth }) + "</tr>\n"
        }
        return html + "</table>\n"
    }

    /// The revocation cell of a certificate: revoked (marked as a rejection is), not revoked, unknown with
    /// why, or `-` when it names no distribution point (or CRLs are not checked).
    static func revocationCell(_ r: CertificateRevocation?) -> String {
        guard let r else { return "<td>-</td>" }
        let e = StatusPage.escape
        switch r.state {
        case .revoked(let at, let reason):
            return "<td class=\"reject\">REVOKED \(e(RFC3339.format(at))) (\(e((reason ?? .unspecified).name)))</td>"
        case .notRevoked(let next): return "<td>not revoked (CRL until \(e(RFC3339.format(next))))</td>"
        case .unknown(let why): return "<td>unknown: \(e(why.rawValue))</td>"
        }
    }
}
