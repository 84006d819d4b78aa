import Foundation

extension SituationWords {
    /// The CA asks for the served certificate to be renewed now (its renewal window ended, or it explains
    /// why): a warning for every app whose forecast the renewal does not break.
    func earlyRenewalRequested(_ w: RenewalWindow) -> Situation {
        make(.earlyRenewalRequested, .warning, nil, due: w.end,
             summary: "The CA that issued the certificate of \(name) asks for it to be renewed now " + Self.window(w)
                 + "; every ACME client renews within hours, and no app's forecast breaks",
             action: "Let the renewal of \(name) happen (or run it now) and check the new chain with pinguard probe"
                 + (w.explanationURL.map { "; the CA's explanation: \($0)" } ?? "") + ".")
    }

    /// The same request when the renewal it asks for breaks an app: critical, since ACME clients renew
    /// within hours.
    func earlyRenewalBreaks(_ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook, _ w: RenewalWindow) -> Situation {
        let ship = Self.shipPins(e, f, o)
        let safe = f.safeKeys.any ? "make it safe: " + Self.safeWays(f.safeKeys) : ship.prefix(1).lowercased() + ship.dropFirst()
        return make(.earlyRenewalRequested, .critical, e, due: w.end,
                    summary: "The CA that issued the certificate of \(name) asks for it to be renewed now " + Self.window(w)
                        + "; that renewal breaks \(Self.app(e)): " + Self.why(f, o, file: ""),
                    action: "Before the ACME client of \(name) renews (within hours), \(safe); or hold the renewal while the CA allows"
                        + (w.explanationURL.map { "; the CA's explanation: \($0)" } ?? "") + ".")
    }

    /// "(its renewal window ended on DAY)" or "(renewal window DAY to DAY)".
    static func window(_ w: RenewalWindow) -> String {
        w.explanationURL == nil ? "(its renewal window ended on \(day(w.end)))" : "(renewal window \(day(w.start)) to \(day(w.end)))"
    }
}
