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

/// The three families of a reported situation and how one situation writes its series in each.
enum SituationSeries: CaseIterable {
    case info, due, words

    var family: MetricFamily {
        switch self {
        case .info: PinGuardMetrics.situationInfo
        case .due: PinGuardMetrics.situationDue
        case .words: PinGuardMetrics.situationWords
        }
    }

    /// Writes `s`'s series of this family (none for a due time it does not have).
    func write(_ s: Situation, into w: inout ExpositionWriter) {
        if self == .due && s.due == nil { return }
        w.begin(); w.label(s.target); w.label(s.policySet); w.label(s.environment); w.label(s.kind.rawValue)
        switch self {
        case .info:
            w.label(s.severity.rawValue); w.label(s.apps.joined(separator: ",")); w.end(1)
        case .due:
            w.end((s.due ?? .distantPast).timeIntervalSince1970.rounded(.down))
        case .words:
            w.label(s.due.map { String(RFC3339.format($0).prefix(10)) } ?? ""); w.label(s.file)
            w.label(s.summary); w.label(s.action); w.end(1)
        }
    }

    /// The situations a result reports: critical and warning ones, except a failing probe (its own alert).
    static func reported(_ r: TargetResult) -> [Situation] {
        SituationAssessor.assess(r, now: r.finishedAt).filter { $0.isReported && $0.kind != .probeFailing }
    }
}

extension TargetSeries {
    /// `pinguard_situation_info`, its due time and its words, judged at the target's last probe.
    static let situation: [TargetSeries] = SituationSeries.allCases.map { series in
        TargetSeries(series.family, bytesPerTarget: 16) { r, shared, w in
            for s in shared.situations(of: r) { series.write(s, into: &w) }
        }
    }
}

extension MetricsRenderer {
    /// The series of situations judged apart from the targets' results (the files of `files:`), by the index
    /// of their family in `targetFamilies`, without HELP and TYPE: appended after the targets' series.
    public static func situationRows(_ situations: [Situation]) -> [Int: [UInt8]] {
        guard !situations.isEmpty else { return [:] }
        var rows: [Int: [UInt8]] = [:]
        for series in SituationSeries.allCases {
            guard let index = targetFamilies.firstIndex(where: { $0.name == series.family.name }) else { continue }
            var w = ExpositionWriter(series.family, capacity: situations.count * 512, header: false)
            for s in situations { series.write(s, into: &w) }
            if !w.buffer.isEmpty { rows[index] = w.buffer }
        }
        return rows
    }
}
