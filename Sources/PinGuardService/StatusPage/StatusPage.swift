import Foundation
import PinGuardCore

/// `GET /`: a status page for people who do not read PromQL (the mobile teams who own the pins): the problems
/// first, most urgent first, each with what to do in the words of its alert; then each target and app with
/// its verdict, the days to expiry, the forecast of the next renewal and a timeline; the staged files; the
/// renewals observed; links to /metrics, the health routes and each target's page. Plain HTML, a little CSS
/// and inline SVG, no script; filtered by app and environment; paged.
enum StatusPage {
    /// Rows per page.
    static let pageSize = 500

    /// The page for `s`; times are shown relative to the last round (no clock is read here).
    static func render(_ s: MetricsSnapshot, query: StatusQuery = StatusQuery(uri: "/")) -> String {
        let reference = s.roundTimestamp
        var html = head + """
        <h1>pinguard</h1>
        <p>\(escape(s.version)) &middot; \(s.targets) targets &middot; last round \(reference.map { escape(RFC3339.format($0)) } ?? "not finished yet") &middot;
        <a href="/metrics">/metrics</a> &middot; <a href="/healthz">/healthz</a> &middot; <a href="/-/ready">/-/ready</a></p>

        """
        html += filters(s.results, query)
        html += problems(s.results, query: query)
        html += revocation(s.results, crls: s.crls)
        html += verdicts(s.results, reference: reference, query: query)
        html += stagedFiles(s.files)
        html += renewals(s.memory)
        return html + "</body></html>\n"
    }

    /// The style and the head of every page.
    static let head = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>pinguard</title>
        <style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}\
        .reject{color:#b00;font-weight:bold}.accept{color:#070}.warn{color:#a60}code{font-size:90%}\
        tr.critical{background:#fbd5d5}tr.warning{background:#fff0c2}tr.upcoming{color:#555}td.todo{max-width:38em}\
        svg.timeline{display:block}</style></head><body>

        """

    /// Links to show one app (policy set) and environment at a time.
    static func filters(_ results: [TargetResult], _ query: StatusQuery) -> String {
        var pairs = Set<String>()
        for r in results { for e in r.evaluations { pairs.insert(e.policySet + "\u{0}" + e.environment) } }
        guard pairs.count > 1 else { return "" }
        let links = pairs.sorted().prefix(100).map { pair -> String in
            let parts = pair.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            var q = StatusQuery(uri: "/")
            q.app = parts[0]
            q.environment = parts[1]
            return "<a href=\"\(escape(q.link(page: 1)))\">\(escape(parts[0] + "/" + parts[1]))</a>"
        }
        return "<p>Show one app: <a href=\"/\">all</a> &middot; " + links.joined(separator: " &middot; ") + "</p>\n"
    }

    /// The targets whose renewals the memory observed, latest first.
    static func renewals(_ m: ChainMemoryFacts) -> String {
        let renewed = m.targets.filter { $0.renewals.lastRenewal != nil }.sorted { ($0.renewals.lastRenewal ?? 0) > ($1.renewals.lastRenewal ?? 0) }
        var html = "<h2>Renewals observed</h2>\n<p>State file \(m.writable ? "written" : "<span class=\"warn\">not written</span> (memory only, or unavailable)").</p>\n"
        guard !renewed.isEmpty else { return html + "<p>None yet.</p>\n" }
        html += "<table><tr><th>target</th><th>renewals</th><th>last</th><th>key</th><th>issuer</th></tr>\n"
        for t in renewed.prefix(pageSize) {
            let at = t.renewals.lastRenewal.map { RFC3339.format(Date(timeIntervalSince1970: TimeInterval($0))) } ?? "-"
            html += "<tr><td>\(escape(t.target))</td><td>\(t.renewals.renewals)</td><td>\(escape(at))</td><td>"
                + (t.renewals.lastKeyReused ? "kept" : "new") + "</td><td>" + (t.renewals.lastIssuerChanged ? "changed" : "same") + "</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func days(_ date: Date?, from reference: Date?) -> String {
        guard let date, let reference else { return "-" }
        return String(format: "%.1f", date.timeIntervalSince(reference) / 86_400)
    }

    /// Text safe inside HTML elements and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c.value < 0x20 || c.value == 0x7F ? "\u{FFFD}" : c)
            }
        }
        return out
    }
}
