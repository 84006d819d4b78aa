import Foundation

extension PinGuardMetrics {
    /// A target's situation for an app, when people are to be told: one series per problem, identifiers only,
    /// so that an alert built on it keeps its identity while its problem lasts.
    public static let situationInfo = MetricFamily(
        "pinguard_situation_info", .gauge,
        labels: ["target", "policy_set", "environment", "situation", "severity", "apps"],
        help: "1 per target and app with a problem to report (critical or warning): the most urgent situation; absent when healthy. The words are in pinguard_situation_words_info.")

    /// When a reported situation is due: users fail, or the renewal that breaks them happens.
    public static let situationDue = MetricFamily(
        "pinguard_situation_due_timestamp_seconds", .gauge,
        labels: ["target", "policy_set", "environment", "situation"],
        help: "When the reported situation is due (users fail or the breaking renewal happens), Unix seconds; absent when it has no date.")

    /// The words of a reported situation, looked up by the alerts' annotations; never an alert's expression.
    public static let situationWords = MetricFamily(
        "pinguard_situation_words_info", .gauge,
        labels: ["target", "policy_set", "environment", "situation", "due", "file", "summary", "action"],
        help: "1 per reported situation: its words (what is wrong, what to do, the due day, the staged file) for the alerts' annotations and the status table; their series changes with the words, so alert on pinguard_situation_info.")
}

extension TargetSeries {
    /// `pinguard_situation_info`, its due time and its words, judged at the target's last probe.
    static let situation: [TargetSeries] = [
        TargetSeries(M.situationInfo, bytesPerTarget: 16) { r, _, w in
            for s in reported(r) {
                w.begin(); identify(s, r, &w); w.label(s.severity.rawValue); w.label(s.apps.joined(separator: ","))
                w.end(1)
            }
        },
        TargetSeries(M.situationDue, bytesPerTarget: 8) { r, _, w in
            for s in reported(r) {
                guard let due = s.due else { continue }
                w.begin(); identify(s, r, &w); w.end(due.timeIntervalSince1970.rounded(.down))
            }
        },
        TargetSeries(M.situationWords, bytesPerTarget: 16) { r, _, w in
            for s in reported(r) {
                w.begin(); identify(s, r, &w)
                w.label(s.due.map { String(RFC3339.format($0).prefix(10)) } ?? ""); w.label(s.file)
                w.label(s.summary); w.label(s.action)
                w.end(1)
            }
        },
    ]

    private static func reported(_ r: TargetResult) -> [Situation] {
        SituationAssessor.assess(r, now: r.finishedAt).filter { $0.isReported && $0.kind != .probeFailing }
    }

    private static func identify(_ s: Situation, _ r: TargetResult, _ w: inout ExpositionWriter) {
        w.label(r.target.name); w.label(s.policySet); w.label(s.environment); w.label(s.kind.rawValue)
    }
}
