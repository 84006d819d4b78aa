import PinGuardCore

extension ResultStore {
    /// Replaces the judgement in force without judging anything now: the staged chains of `files:` were judged
    /// again, and what is judged or forecast later (a result of an older configuration, a moved renewal window,
    /// a revocation) must see them, not the chains staged when the configuration was loaded.
    public func use(_ judge: Judge) {
        state.withLockedValue { $0.judge = judge }
    }

    /// Forecasts again the results of `targets` (their renewal window changed), with the judgement in force,
    /// and returns the events of the change (`renewal_will_break_pins`, `early_renewal_requested`). Targets
    /// that serve one chain under one outlook get one forecast per set (`JudgementMemo`).
    public func reforecast(targets: Set<String>) -> [JournalEntry] {
        guard !targets.isEmpty else { return [] }
        return state.withLockedValue { s in
            var events: [JournalEntry] = []
            let memo = JudgementMemo()
            for name in targets.sorted() {
                guard let p = s.position[name], let old = s.results[p] else { continue }
                var result = old
                s.judge.forecast(&result, memo: memo)
                events += ForecastEvents.changes(from: old, to: result) + EarlyRenewalEvents.changes(from: old, to: result)
                s.results[p] = result
                s.touch(p)
            }
            return events
        }
    }
}
