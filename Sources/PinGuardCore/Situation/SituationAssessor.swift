import Foundation

/// Finds a target's situations at `now`: one per app, the most urgent of what applies to it, with the
/// certificate's own problems (expiry, an overdue renewal, no chain) told once for every app they outrank.
public enum SituationAssessor {
    /// The situations of `result` at `now`, most urgent first; healthy targets have none.
    ///
    /// - Parameter journal: false for a command, which writes no journal: the words then never point at one.
    public static func assess(_ result: TargetResult, now: Date, journal: Bool = true) -> [Situation] {
        let wide = certificateSituation(result, now: now, journal: journal)
        var own: [Situation] = []
        var outranked: [String] = []
        for e in result.evaluations where e.verdict != .none {
            let app = appSituation(result, e, now: now, journal: journal)
            if let wide, app.map({ wide.isMoreUrgent(than: $0) }) ?? true {
                outranked.append(e.policySet + "/" + e.environment)
            } else if let app {
                own.append(app)
            }
        }
        var out = own
        if var wide {
            wide.apps = outranked
            if !outranked.isEmpty || own.isEmpty { out.append(wide) }
        }
        return out.sorted { $0.isMoreUrgent(than: $1) }
    }

    /// The schedule of the served certificate that expires first.
    public static func schedule(_ result: TargetResult) -> CertificateSchedule? {
        let chains = result.nodes.filter(\.facts.success).map(\.facts.evaluatedChain)
        guard let chain = chains.min(by: { earliest($0) < earliest($1) }), let leaf = chain.first else { return nil }
        let renewal = result.outlook?.nextRenewal ?? RenewalForecaster.nextRenewal(of: leaf, before: result.target.renewal?.before)
        return CertificateSchedule(notBefore: leaf.notBefore, notAfter: earliest(chain), renewal: renewal)
    }

    static func earliest(_ chain: [ChainCertificate]) -> Date { chain.map(\.notAfter).min() ?? .distantFuture }

    /// What concerns every app: no chain at all, expiry with nothing in place, an overdue renewal.
    static func certificateSituation(_ r: TargetResult, now: Date, journal: Bool = true) -> Situation? {
        let words = SituationWords(result: r, now: now, journal: journal)
        guard r.nodes.contains(where: \.facts.success) else { return words.probeFailing() }
        guard let s = schedule(r) else { return nil }
        let staged = r.outlook?.stagedLeaf != nil
        if s.isCritical(at: now) && !staged { return words.expiresUnrenewed(s) }
        // The CA moved the window: the renewal is asked for, not overdue.
        if let w = r.outlook?.window, w.asksEarlyRenewal(now: now) { return words.earlyRenewalRequested(w) }
        if s.isOverdue(at: now) { return words.renewalOverdue(s) }
        return nil
    }

    /// What concerns one app, the most urgent of: its verdict now, its forecast, its pins.
    static func appSituation(_ r: TargetResult, _ e: Evaluation, now: Date, journal: Bool = true) -> Situation? {
        let words = SituationWords(result: r, now: now, journal: journal)
        if e.verdict == .reject { return words.rejected(e) }
        if let revoked = RevokedPin.first(pinnedBy: e, in: r) { return words.revoked(e, revoked) }
        var found: [Situation] = []
        let forecast = r.forecasts.first { $0.policySet == e.policySet && $0.environment == e.environment }
        if let f = forecast, f.rejectRatio > 0, let o = r.outlook { found.append(forecastSituation(words, e, f, o, now: now)) }
        if !e.clientUpdates.isEmpty { found.append(words.breaksOnClientUpdate(e)) }
        if e.backupInUse { found.append(words.backupPinInUse(e)) }
        return found.min { $0.isMoreUrgent(than: $1) }
    }

    /// A forecast that breaks the app: staged, at risk with a fresh key, or certain; its severity grows as the
    /// renewal approaches (docs/prometheus.md).
    static func forecastSituation(_ words: SituationWords, _ e: Evaluation, _ f: SetForecast, _ o: RenewalOutlook,
                                  now: Date) -> Situation {
        if let w = o.window, w.asksEarlyRenewal(now: now) { return words.earlyRenewalBreaks(e, f, o, w) }
        let severity = renewalSeverity(o.nextRenewal, now: now)
        if o.keyBasis == .staged, let file = o.stagedFile {
            return severity == .upcoming ? words.stagedRejected(e, f, o, file: file) : words.breaksAtRenewal(e, f, o, severity: severity)
        }
        if ForecastVerdict.of(f, o) == .atRisk { return words.renewalAtRisk(e, f, o, severity: severity) }
        return words.breaksAtRenewal(e, f, o, severity: severity)
    }

    /// Nothing more than 30 days ahead, a warning within 30 days, critical within 7 (or past due).
    static func renewalSeverity(_ renewal: Date, now: Date) -> Situation.Severity {
        let left = renewal.timeIntervalSince(now)
        if left <= 7 * CertificateSchedule.day { return .critical }
        if left <= 30 * CertificateSchedule.day { return .warning }
        return .upcoming
    }
}
