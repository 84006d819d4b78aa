import PinGuardCore

extension ResultStore {
    /// Forecasts again the results of `targets` (their renewal window changed), with the judgement in force,
    /// and returns the events of the change (`renewal_will_break_pins`, `early_renewal_requested`).
    public func reforecast(targets: Set<String>) -> [JournalEntry] {
        guard !targets.isEmpty else { return [] }
        return state.withLockedValue { s in
            var events: [JournalEntry] = []
            for name in targets.sorted() {
                guard let p = s.position[name], let old = s.results[p] else { continue }
                var result = old
                s.judge.forecast(&result)
                events += ForecastEvents.changes(from: old, to: result) + EarlyRenewalEvents.changes(from: old, to: result)
                s.results[p] = result
                s.touch(p)
            }
            return events
        }
    }
}
