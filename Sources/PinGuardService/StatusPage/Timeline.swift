import Foundation
import PinGuardCore

/// A target's time at a glance, as an inline SVG (no script): the leaf's life from notBefore to notAfter,
/// now, the expected renewal coloured by the forecast's verdict, the CA's renewal window when ARI gives one, the
/// critical last part of the lifetime, and the pin set's expiry when it falls inside.
enum Timeline {
    static let width = 240.0
    static let height = 30.0

    /// Colours of the renewal marker by the forecast's verdict, and of the other marks.
    static let safe = "#2a8a2a", atRisk = "#e08a00", breaks = "#c00000", now = "#111111", critical = "#f6b3b3", pinExpiry = "#7a3db8",
        expiry = "#6b0000", ariWindow = "#7fb3e0"

    /// The SVG of `r` judged at `now`, its renewal coloured by the forecast of `app` (`set/environment`; nil: the
    /// worst over the apps); "" without a served chain.
    static func svg(_ r: TargetResult, now: Date, app: String? = nil) -> String {
        guard let s = SituationAssessor.schedule(r) else { return "" }
        let start = s.notBefore.timeIntervalSince1970, end = max(s.notAfter.timeIntervalSince1970, start + 1)
        func x(_ d: Date) -> Double { (min(max((d.timeIntervalSince1970 - start) / (end - start), 0), 1) * (width - 8) + 4).rounded() }
        let day = { (d: Date) in String(RFC3339.format(d).prefix(10)) }
        let (colour, verdict) = renewalMark(r, app: app)
        var svg = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "role=\"img\" aria-label=\"\(StatusPage.escape("renewal \(day(s.renewal)) \(verdict), expires \(day(s.notAfter))"))\">"
        svg += "<rect x=\"4\" y=\"11\" width=\"\(Int(width - 8))\" height=\"8\" fill=\"#e4e4e4\"/>"
        svg += rect(from: x(s.criticalAt), to: x(s.notAfter), fill: critical, title: "last \(Int((s.criticalWindow / 86_400).rounded())) days: critical with nothing in place")
        svg += rect(from: 4, to: x(now), fill: "#9aa7b8", title: "elapsed")
        if let w = r.outlook?.window {
            svg += rect(from: x(w.start), to: max(x(w.end), x(w.start) + 2), fill: ariWindow,
                        title: "the CA's renewal window \(day(w.start)) to \(day(w.end))")
        }
        if let pinsExpire = r.evaluations.compactMap({ $0.policy?.expires }).min(), pinsExpire.timeIntervalSince1970 <= end {
            svg += mark(x(pinsExpire), colour: pinExpiry, y: 4, title: "pin set expires \(day(pinsExpire))")
        }
        svg += mark(x(s.renewal), colour: colour, y: 2, title: "next renewal \(day(s.renewal)): \(verdict)", width: 4)
        svg += mark(x(s.notAfter), colour: expiry, y: 6, title: "notAfter \(day(s.notAfter))")
        svg += mark(x(now), colour: Self.now, y: 0, title: "now", width: 2)
        return svg + "</svg>"
    }

    /// The colour and words of the next renewal's verdict: the forecast of `app`, or the worst over the apps.
    static func renewalMark(_ r: TargetResult, app: String?) -> (String, String) {
        guard let o = r.outlook else { return (safe, "no forecast") }
        let verdicts = r.forecasts.filter { app == nil || $0.policySet + "/" + $0.environment == app }
            .map { RenewalForecastReport.verdict($0, o) }
        if verdicts.contains(.breaks) { return (breaks, "breaks a pinned app") }
        if verdicts.contains(.atRisk) { return (atRisk, "at risk with a fresh key") }
        return (safe, "safe for every app")
    }

    static func rect(from a: Double, to b: Double, fill: String, title: String) -> String {
        guard b > a else { return "" }
        return "<rect x=\"\(Int(a))\" y=\"11\" width=\"\(Int(b - a))\" height=\"8\" fill=\"\(fill)\"><title>\(StatusPage.escape(title))</title></rect>"
    }

    static func mark(_ x: Double, colour: String, y: Double, title: String, width: Double = 3) -> String {
        "<rect x=\"\(Int(x - width / 2))\" y=\"\(Int(y))\" width=\"\(Int(width))\" height=\"\(Int(height - 2 * y))\" fill=\"\(colour)\">"
            + "<title>\(StatusPage.escape(title))</title></rect>"
    }
}
