import Foundation

/// `early_renewal_requested`: written when the CA's renewal window for the served leaf comes to ask for a
/// renewal sooner than planned (its end passed, or it carries an explanation): every ACME client that
/// reads ARI renews within hours, which is when a pinned app breaks if the renewal does.
public enum EarlyRenewalEvents {
    /// The event of `new` against `old`, each judged at its own probe time: once per window that asks.
    public static func changes(from old: TargetResult?, to new: TargetResult) -> [JournalEntry] {
        guard let outlook = new.outlook, let window = outlook.window, window.asksEarlyRenewal(now: new.finishedAt) else { return [] }
        if let old, let before = old.outlook?.window, before == window, before.asksEarlyRenewal(now: old.finishedAt) { return [] }
        return [entry(new, window, outlook)]
    }

    static func entry(_ result: TargetResult, _ window: RenewalWindow, _ outlook: RenewalOutlook) -> JournalEntry {
        let t = result.target
        let breaking = result.forecasts.filter { $0.rejectRatio > 0 }.map(\.policySet)
        let effect = breaking.isEmpty ? "no pinned client's forecast breaks"
            : "the renewal breaks " + breaking.joined(separator: ", ")
        let because = window.explanationURL.map { "; the CA explains: \($0)" } ?? ""
        return JournalEntry(
            event: .earlyRenewalRequested,
            message: "\(t.name): the CA asks for the certificate to be renewed now (window \(RFC3339.format(window.start)) to "
                + "\(RFC3339.format(window.end)))\(because); \(effect)",
            fields: [("PINGUARD_TARGET", t.name), ("PINGUARD_HOST", t.host), ("PINGUARD_PORT", String(t.port)),
                     ("PINGUARD_WINDOW_START", RFC3339.format(window.start)), ("PINGUARD_WINDOW_END", RFC3339.format(window.end)),
                     ("PINGUARD_EXPLANATION_URL", window.explanationURL ?? ""),
                     ("PINGUARD_POLICY_SETS", breaking.joined(separator: ","))])
    }
}
