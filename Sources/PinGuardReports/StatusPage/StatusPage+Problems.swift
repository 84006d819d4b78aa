import Foundation
import PinGuardCore

extension StatusPage {
    /// Every target's situations, most urgent first: what is wrong, for whom, by when and what to do, in the
    /// words of the alerts. Upcoming ones (more than 30 days ahead) close the list, greyed.
    static func problems(_ results: [TargetResult], query: StatusQuery) -> String {
        var found: [Situation] = []
        for r in results {
            for s in SituationAssessor.assess(r, now: r.finishedAt) where shown(s, query) { found.append(s) }
        }
        found.sort { a, b in a.isMoreUrgent(than: b) || (!b.isMoreUrgent(than: a) && a.target < b.target) }
        var html = "<h2>Problems</h2>\n"
        guard !found.isEmpty else { return html + "<p class=\"accept\">None: every target is healthy for every app.</p>\n" }
        html += "<table class=\"problems\"><tr><th>severity</th><th>target</th><th>apps</th><th>what is wrong</th>"
            + "<th>what to do</th><th>due</th></tr>\n"
        for s in found.prefix(pageSize) {
            let link = "<a href=\"/targets/\(escape(StatusQuery.encode(s.target)))\">\(escape(s.target))</a>"
            let due = s.due.map { String(RFC3339.format($0).prefix(10)) } ?? "now"
            html += "<tr class=\"\(s.severity.rawValue)\"><td>\(s.severity.rawValue)</td><td>\(link)</td><td>"
                + escape(s.apps.joined(separator: ", ")) + "</td><td>\(escape(s.summary))</td><td class=\"todo\">\(escape(s.action))</td>"
                + "<td>\(escape(due))</td></tr>\n"
        }
        if found.count > pageSize { html += "<tr><td colspan=\"6\">and \(found.count - pageSize) more</td></tr>\n" }
        return html + "</table>\n"
    }

    /// Whether situation `s` concerns the app and environment the page is filtered by.
    static func shown(_ s: Situation, _ query: StatusQuery) -> Bool {
        guard query.app != nil || query.environment != nil else { return true }
        return s.apps.contains { app in
            let parts = app.split(separator: "/", maxSplits: 1).map(String.init)
            return (query.app ?? parts[0]) == parts[0] && (query.environment ?? parts.last ?? "") == (parts.last ?? "")
        }
    }
}
