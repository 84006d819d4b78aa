import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders

/// Lint findings of the loaded policies, for the service: counts per set and severity for
/// `pinguard_policy_lint_findings`, and a `policy_lint_finding` event for each finding not reported before.
///
/// Findings are recomputed after every round, so a pin set that starts expiring while the service runs
/// shows up without a reload; unchanged findings are not written again.
struct PolicyLintTracker {
    let publicSuffixes: PublicSuffixList
    private var reported: Set<String> = []

    /// Which public suffix list is in use (`PublicSuffixListLoader`).
    let publicSuffixSource: String

    /// Loads the public suffix list once: the file at `listPath`, or by default the bundled copy or the
    /// system's newer one; without any, only single-label suffixes are flagged.
    init(listPath: String? = nil) {
        let loaded = listPath.map { PublicSuffixListLoader.load(path: $0) ?? LoadedPublicSuffixList(
            list: PublicSuffixList(text: ""), source: "none: \($0) is not readable", isMissing: true) }
            ?? PublicSuffixListLoader.load()
        publicSuffixes = loaded.list
        publicSuffixSource = loaded.source
    }

    /// Lints `sets`; returns the counts and the events of findings not seen before.
    mutating func update(_ sets: [PolicySet], now: Date, windowDays: Int,
                         catalog: IssuerCatalog = .empty) -> (counts: [LintCount], events: [JournalEntry]) {
        let findings = PolicyLinter.lint(sets, now: now, publicSuffixes: publicSuffixes, expiringWithinDays: windowDays, catalog: catalog)
        var counts: [LintCount] = []
        for set in sets {
            for severity in FindingSeverity.allCases {
                let n = findings.reduce(0) { $0 + ($1.policySet == set.name && $1.severity == severity ? 1 : 0) }
                counts.append(LintCount(policySet: set.name, severity: severity.rawValue, count: n))
            }
        }
        var events: [JournalEntry] = []
        var current: Set<String> = []
        for f in findings {
            // The same finding keeps its key when lines move or a day count changes ("expires in 12 days").
            let message = f.message.replacingOccurrences(of: "[0-9]+ day", with: "N day", options: .regularExpression)
            let key = [f.ruleID, f.policySet, f.environment ?? "", f.pattern ?? "", message].joined(separator: "\u{1f}")
            current.insert(key)
            guard !reported.contains(key) else { continue }
            var fields: [(String, String)] = [("PINGUARD_POLICY_SET", f.policySet), ("PINGUARD_RULE", f.ruleID),
                                              ("PINGUARD_SEVERITY", f.severity.rawValue)]
            if let e = f.environment { fields.append(("PINGUARD_ENVIRONMENT", e)) }
            if let p = f.pattern { fields.append(("PINGUARD_PATTERN", p)) }
            if let file = f.file { fields.append(("PINGUARD_FILE", file)) }
            if let line = f.line { fields.append(("PINGUARD_LINE", String(line))) }
            events.append(JournalEntry(event: .policyLintFinding,
                                       message: "policy lint \(f.severity.rawValue) [\(f.ruleID)] \(f.policySet): \(f.message) (hint: \(f.hint))",
                                       fields: fields))
        }
        reported = current
        return (counts, events)
    }
}
