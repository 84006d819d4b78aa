import Foundation
import PinGuardCore

extension StatusPage {
    /// The certificates a valid CRL lists as revoked, and the distribution points without a current list;
    /// nothing when there are neither. Reported beside the verdicts, not in them: pinned apps do not check CRLs.
    static func revocation(_ results: [TargetResult], crls: [CRLStatus]) -> String {
        var rows: [String] = []
        for r in results {
            for n in r.nodes {
                let chain = n.facts.evaluatedChain
                for c in n.facts.revocation where c.depth < chain.count {
                    guard case .revoked(let at, let reason) = c.state else { continue }
                    let link = "<a href=\"/targets/\(escape(StatusQuery.encode(r.target.name)))\">\(escape(r.target.name))</a>"
                    rows.append("<tr class=\"critical\"><td>\(link)</td><td>\(escape(n.address))</td><td>\(c.depth)</td>"
                        + "<td>\(escape(chain[c.depth].subject))</td><td>\(escape(RFC3339.format(at)))</td>"
                        + "<td>\(escape((reason ?? .unspecified).name))</td><td><code>\(escape(c.url))</code></td></tr>\n")
                }
            }
        }
        let failing = crls.filter { !$0.lastFetchSucceeded }
        guard !rows.isEmpty || !failing.isEmpty else { return "" }
        var html = "<h2>Revocation (CRLs)</h2>\n<p>Reported only: the pinned apps do not check CRLs, so no verdict above depends on it.</p>\n"
        if !rows.isEmpty {
            html += "<table><tr><th>target</th><th>address</th><th>depth</th><th>subject</th><th>revoked</th><th>reason</th><th>CRL</th></tr>\n"
                + rows.prefix(pageSize).joined() + "</table>\n"
        }
        for c in failing.prefix(pageSize) {
            let held = c.nextUpdate.map { "the last good list is good until \(RFC3339.format($0))" } ?? "no list was believed yet"
            html += "<p class=\"warn\">CRL <code>\(escape(c.url))</code>: the last fetch was not believed (\(escape(c.lastFailure?.rawValue ?? "failed"))); \(escape(held)).</p>\n"
        }
        return html
    }
}
