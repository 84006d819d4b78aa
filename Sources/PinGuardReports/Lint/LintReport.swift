import Foundation
import PinGuardCore

/// Output formats of `pinguard lint`.
public enum LintReportFormat: String, Sendable, CaseIterable {
    /// `file:line: severity: [rule] message (hint: …)`, one line per finding.
    case text
    /// A JSON array of finding objects.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,title=rule::message`).
    case github
    /// SARIF 2.1.0, for code-scanning uploads.
    case sarif
}

/// Renders lint findings and turns them into an exit status.
public enum LintReport {
    /// The findings in `format`; text and github end every line with a newline, json and sarif are one document.
    /// `sarif` supplies the tool version and documentation URI a SARIF log names.
    public static func render(_ findings: [LintFinding], format: LintReportFormat,
                              sarif: LintSARIFOptions = LintSARIFOptions()) -> String {
        switch format {
        case .text: return findings.map { text($0) + "\n" }.joined()
        case .json: return encode(findings.map(JSONFinding.init))
        case .github: return findings.map { github($0) + "\n" }.joined()
        case .sarif: return SARIFLog.render(findings, options: sarif)
        }
    }

    /// 0 when clean, 1 when there is an error (or, with `strict`, a warning); info never fails.
    public static func exitCode(_ findings: [LintFinding], strict: Bool) -> Int32 {
        let failing = findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        return failing ? 1 : 0
    }

    /// `2 errors, 1 warning, 0 info`.
    public static func summary(_ findings: [LintFinding]) -> String {
        func count(_ s: FindingSeverity) -> Int { findings.filter { $0.severity == s }.count }
        let e = count(.error), w = count(.warning)
        return "\(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(count(.info)) info"
    }

    /// `file:line` (or the policy set name when the file is unknown).
    static func location(_ f: LintFinding) -> String {
        var s = f.file ?? f.policySet
        if let line = f.line { s += ":\(line)" }
        return s
    }

    static func text(_ f: LintFinding) -> String {
        "\(location(f)): \(f.severity.rawValue): [\(f.ruleID)] \(f.message) (hint: \(f.hint))"
    }

    static func github(_ f: LintFinding) -> String {
        let command: String
        switch f.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .info: command = "notice"
        }
        var props: [String] = []
        if let file = f.file { props.append("file=\(escapeProperty(file))") }
        if let line = f.line { props.append("line=\(line)") }
        props.append("title=\(escapeProperty(f.ruleID))")
        return "::\(command) \(props.joined(separator: ","))::\(escapeData("\(f.message) (hint: \(f.hint))"))"
    }

    /// Workflow-command data escaping.
    static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Workflow-command property escaping (data escaping plus `:` and `,`).
    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The JSON form of a finding; absent values are written as null so every object has every key.
struct JSONFinding: Encodable {
    let finding: LintFinding

    init(_ finding: LintFinding) {
        self.finding = finding
    }

    enum Key: String, CodingKey {
        case rule, severity, policySet = "policy_set", environment, pattern, file, line, message, hint
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(finding.ruleID, forKey: .rule)
        try c.encode(finding.severity.rawValue, forKey: .severity)
        try c.encode(finding.policySet, forKey: .policySet)
        try c.encode(finding.environment, forKey: .environment)
        try c.encode(finding.pattern, forKey: .pattern)
        try c.encode(finding.file, forKey: .file)
        try c.encode(finding.line, forKey: .line)
        try c.encode(finding.message, forKey: .message)
        try c.encode(finding.hint, forKey: .hint)
    }
}
