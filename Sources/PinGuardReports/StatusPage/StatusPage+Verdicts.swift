import Foundation
import PinGuardCore

extension StatusPage {
    /// One row per target and policy set, ranked by the target's most urgent situation for that app, each with
    /// its timeline.
    static func verdicts(_ results: [TargetResult], reference: Date?, query: StatusQuery) -> String {
        var rows: [(rank: Int, name: String, html: String)] = []
        for r in results {
            let situations = SituationAssessor.assess(r, now: r.finishedAt)
            let probe = r.allNodesReached ? "" : " <span class=\"reject\">probe failed</span>"
            for e in r.evaluations where (query.app ?? e.policySet) == e.policySet && (query.environment ?? e.environment) == e.environment {
                let worst = situations.first { $0.apps.contains(e.policySet + "/" + e.environment) }
                let f = r.forecasts.first { $0.policySet == e.policySet && $0.environment == e.environment }
                let link = "<a href=\"/targets/\(escape(StatusQuery.encode(r.target.name)))\">\(escape(r.target.name))</a>"
                let cells = [link + probe, escape(e.policySet + "/" + e.environment), verdictCell(e),
                             escape(e.reason.rawValue), days(e.earliestExpiry, from: reference),
                             r.outlook.map { escape(String(RFC3339.format($0.nextRenewal).prefix(10))) } ?? "-",
                             forecastCell(f, r.outlook), String(e.reservePins.count),
                             Timeline.svg(r, now: r.finishedAt, app: e.policySet + "/" + e.environment)]
                let style = worst.map { " class=\"\($0.severity.rawValue)\"" } ?? ""
                rows.append((worst.map(urgency) ?? Int.max, r.target.name,
                             "<tr\(style)><td>" + cells.joined(separator: "</td><td>") + "</td></tr>\n"))
            }
        }
        rows.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.name < $1.name }
        var html = "<h2>Verdicts</h2>\n<table><tr><th>target</th><th>app</th><th>verdict</th><th>reason</th><th>days to expiry</th>"
            + "<th>next renewal</th><th>the next renewal</th><th>reserve pins</th><th>timeline</th></tr>\n"
        let pages = max(1, (rows.count + pageSize - 1) / pageSize)
        let page = min(query.page, pages)
        html += rows.dropFirst((page - 1) * pageSize).prefix(pageSize).map(\.html).joined()
        html += "</table>\n"
        if pages > 1 {
            html += "<p>Page \(page) of \(pages) (\(rows.count) rows)"
            if page > 1 { html += " &middot; <a href=\"\(escape(query.link(page: page - 1)))\">previous</a>" }
            if page < pages { html += " &middot; <a href=\"\(escape(query.link(page: page + 1)))\">next</a>" }
            html += "</p>\n"
        }
        if rows.isEmpty { html += "<p>No verdict yet: the first round is running, or no policy set covers a target.</p>\n" }
        return html + legend
    }

    /// A situation's place in the order of urgency: by severity, then by kind.
    static func urgency(_ s: Situation) -> Int {
        s.severity.rank * 100 + (Situation.Kind.allCases.firstIndex(of: s.kind) ?? 0)
    }

    /// What the timeline's marks mean.
    static let legend = "<p><small>Timeline: the leaf's life from notBefore to notAfter; grey: elapsed; black: now; the tall mark: the next renewal "
        + "(green safe, amber at risk with a fresh key, red breaks a pinned app); pink: the last days, critical with nothing in place; "
        + "purple: the pin set expires.</small></p>\n"

    /// The verdict cell: accept, accept on a backup pin, or REJECT.
    static func verdictCell(_ e: Evaluation) -> String {
        switch e.verdict {
        case .accept where e.backupInUse: return "<span class=\"warn\">accept (backup pin)</span>"
        case .accept: return "<span class=\"accept\">accept</span>"
        case .reject: return "<span class=\"reject\">REJECT</span>"
        case .none: return "-"
        }
    }

    /// The forecast's verdict for one app, with the share of plausible renewals it rejects.
    static func forecastCell(_ f: SetForecast?, _ o: RenewalOutlook?) -> String {
        guard let f, let o else { return "-" }
        let percent = Int((f.rejectRatio * 100).rounded())
        switch ForecastVerdict.of(f, o) {
        case .safe: return "<span class=\"accept\">safe</span>"
        case .atRisk: return "<span class=\"warn\">at risk with a fresh key (\(percent)%)</span>"
        case .breaks: return "<span class=\"reject\">breaks \(percent)%</span>"
        }
    }

    /// The chains staged in `files:` and each app's verdict on them.
    static func stagedFiles(_ files: [TargetResult]) -> String {
        guard !files.isEmpty else { return "" }
        var html = "<h2>Staged files</h2>\n<table><tr><th>file</th><th>for host</th><th>app</th><th>verdict once served</th><th>reason</th></tr>\n"
        for r in files.prefix(pageSize) {
            let head = "<tr><td><code>\(escape(r.target.name))</code></td><td>\(escape(r.target.host))</td>"
            guard r.facts.success else {
                html += head + "<td>-</td><td class=\"reject\">unreadable</td><td>\(escape(r.facts.error ?? ""))</td></tr>\n"
                continue
            }
            for e in r.evaluations {
                html += head + "<td>\(escape(e.policySet + "/" + e.environment))</td><td>\(verdictCell(e))</td><td>\(escape(e.reason.rawValue))</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }
}
