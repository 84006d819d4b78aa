import Foundation
import PinGuardCore

/// `GET /`: a status page for people who do not read PromQL (the mobile teams who own the pins): each
/// target and app with its verdict, the days to expiry and the forecast of the next renewal, the renewals
/// observed, and links to /metrics and the health routes. Plain HTML, no script; problems first.
enum StatusPage {
    /// Rows shown at most (the rest are counted).
    static let maxRows = 500

    /// The page for `s`; times are shown relative to the last round (no clock is read here).
    static func render(_ s: MetricsSnapshot) -> String {
        let reference = s.roundTimestamp
        var html = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>pinguard</title>
        <style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}\
        .reject{color:#b00;font-weight:bold}.accept{color:#070}.warn{color:#a60}</style></head><body>
        <h1>pinguard</h1>
        <p>\(escape(s.version)) &middot; \(s.targets) targets &middot; last round \(reference.map { escape(RFC3339.format($0)) } ?? "not finished yet") &middot;
        <a href="/metrics">/metrics</a> &middot; <a href="/healthz">/healthz</a> &middot; <a href="/-/ready">/-/ready</a></p>

        """
        html += verdicts(s.results, reference: reference)
        html += renewals(s.memory)
        return html + "</body></html>\n"
    }

    /// One row per target and policy set: rejects first, then the riskiest next renewals.
    static func verdicts(_ results: [TargetResult], reference: Date?) -> String {
        var rows: [(rank: Double, name: String, html: String)] = []
        for r in results {
            let forecasts = Dictionary(r.forecasts.map { ($0.policySet + "/" + $0.environment, $0) }, uniquingKeysWith: { a, _ in a })
            let probe = r.allNodesReached ? "" : " <span class=\"reject\">probe failed</span>"
            for e in r.evaluations {
                let f = forecasts[e.policySet + "/" + e.environment]
                let rank = (e.verdict == .reject ? 10 : 0) + (r.allNodesReached ? 0 : 5) + (f?.rejectRatio ?? 0)
                let cells = [escape(r.target.name) + probe, escape(e.policySet + "/" + e.environment), verdictCell(e),
                             escape(e.reason.rawValue), days(e.earliestExpiry, from: reference),
                             r.outlook.map { escape(String(RFC3339.format($0.nextRenewal).prefix(10))) } ?? "-", ratioCell(f),
                             String(e.reservePins.count)]
                rows.append((rank, r.target.name, "<tr><td>" + cells.joined(separator: "</td><td>") + "</td></tr>\n"))
            }
        }
        rows.sort { $0.rank != $1.rank ? $0.rank > $1.rank : $0.name < $1.name }
        var html = "<h2>Verdicts</h2>\n<table><tr><th>target</th><th>app</th><th>verdict</th><th>reason</th><th>days to expiry</th>"
            + "<th>next renewal</th><th>renewals it rejects</th><th>reserve pins</th></tr>\n"
        html += rows.prefix(maxRows).map(\.html).joined()
        html += "</table>\n"
        if rows.count > maxRows { html += "<p>\(rows.count - maxRows) more rows not shown (see /metrics).</p>\n" }
        if rows.isEmpty { html += "<p>No verdict yet: the first round is running, or no policy set covers a target.</p>\n" }
        return html
    }

    /// The targets whose renewals the memory observed, latest first.
    static func renewals(_ m: ChainMemoryFacts) -> String {
        let renewed = m.targets.filter { $0.renewals.lastRenewal != nil }.sorted { ($0.renewals.lastRenewal ?? 0) > ($1.renewals.lastRenewal ?? 0) }
        var html = "<h2>Renewals observed</h2>\n<p>State file \(m.writable ? "written" : "<span class=\"warn\">not written</span> (memory only, or unavailable)").</p>\n"
        guard !renewed.isEmpty else { return html + "<p>None yet.</p>\n" }
        html += "<table><tr><th>target</th><th>renewals</th><th>last</th><th>key</th><th>issuer</th></tr>\n"
        for t in renewed.prefix(maxRows) {
            let at = t.renewals.lastRenewal.map { RFC3339.format(Date(timeIntervalSince1970: TimeInterval($0))) } ?? "-"
            html += "<tr><td>\(escape(t.target))</td><td>\(t.renewals.renewals)</td><td>\(escape(at))</td><td>"
                + (t.renewals.lastKeyReused ? "kept" : "new") + "</td><td>" + (t.renewals.lastIssuerChanged ? "changed" : "same") + "</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func verdictCell(_ e: Evaluation) -> String {
        switch e.verdict {
        case .accept: return "<span class=\"accept\">accept</span>"
        case .reject: return "<span class=\"reject\">REJECT</span>"
        case .none: return "-"
        }
    }

    static func ratioCell(_ f: SetForecast?) -> String {
        guard let f else { return "-" }
        let percent = Int((f.rejectRatio * 100).rounded())
        return percent == 0 ? "0%" : "<span class=\"\(percent == 100 ? "reject" : "warn")\">\(percent)%</span>"
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
            default: out.unicodeScalars.append(c.value < 0x20 || c.value == 0x7F ? "\u{FFFD}" : c)
            }
        }
        return out
    }
}
