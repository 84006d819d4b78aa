import Foundation

extension PinGuardMetrics {
    /// A target's situation for an app, when people are to be told: one series per problem.
    public static let situationInfo = MetricFamily(
        "pinguard_situation_info", .gauge,
        labels: ["target", "policy_set", "environment", "situation", "severity", "apps", "file", "due", "summary", "action"],
        help: "1 per target and app with a problem to report (critical or warning): the most urgent situation, what is wrong and what to do; absent when healthy.")
}

extension TargetSeries {
    /// `pinguard_situation_info`, judged at the target's last probe.
    static let situation: [TargetSeries] = [
        TargetSeries(M.situationInfo, bytesPerTarget: 16) { r, _, w in
            for s in SituationAssessor.assess(r, now: r.finishedAt) where s.isReported && s.kind != .probeFailing {
                w.begin(); w.label(r.target.name); w.label(s.policySet); w.label(s.environment); w.label(s.kind.rawValue)
                w.label(s.severity.rawValue); w.label(s.apps.joined(separator: ",")); w.label(s.file)
                w.label(s.due.map { String(RFC3339.format($0).prefix(10)) } ?? ""); w.label(s.summary); w.label(s.action)
                w.end(1)
            }
        },
    ]
}
