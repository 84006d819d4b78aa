import Foundation
import PinGuardCore

/// A SARIF 2.1.0 log of lint findings as GitHub code scanning takes it: one run; the driver with its version,
/// information URI and every rule (help, help URI, tags, `security-severity`); one result per finding with
/// at least one location and a line-independent `partialFingerprints` entry, so an alert keeps its identity
/// when lines move and is not duplicated between runs.
struct SARIFLog: Encodable {
    struct Text: Encodable {
        let text: String
    }

    struct Help: Encodable {
        let text: String
        let markdown: String
    }

    struct Configuration: Encodable {
        let level: String
    }

    struct RuleProperties: Encodable {
        let tags: [String]
        let precision = "very-high"
        let securitySeverity: String
        let problemSeverity: String

        enum CodingKeys: String, CodingKey {
            case tags, precision, securitySeverity = "security-severity", problemSeverity = "problem.severity"
        }
    }

    struct Rule: Encodable {
        let id: String
        let name: String
        let shortDescription: Text
        let fullDescription: Text
        let help: Help
        let helpUri: String
        let defaultConfiguration: Configuration
        let properties: RuleProperties
    }

    struct Driver: Encodable {
        let name = "pinguard"
        let version: String
        let semanticVersion: String?
        let informationUri: String
        let rules: [Rule]
    }

    struct Tool: Encodable {
        let driver: Driver
    }

    struct ArtifactLocation: Encodable {
        let uri: String
    }

    struct Region: Encodable {
        let startLine: Int
    }

    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }

    struct Location: Encodable {
        let physicalLocation: PhysicalLocation
    }

    struct Properties: Encodable {
        let policySet: String
        let environment: String?
        let pattern: String?
    }

    struct Result: Encodable {
        let ruleId: String
        let ruleIndex: Int
        let level: String
        let message: Text
        let locations: [Location]
        let partialFingerprints: [String: String]
        let properties: Properties
    }

    struct RunProperties: Encodable {
        let publicSuffixList: String
    }

    struct Run: Encodable {
        let tool: Tool
        let columnKind = "unicodeCodePoints"
        let results: [Result]
        let properties: RunProperties?
    }

    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    let version = "2.1.0"
    let runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, runs
    }

    /// The key under `partialFingerprints`; the suffix is bumped if what goes into the hash changes.
    static let fingerprintKey = "pinguardFinding/v1"

    static func level(_ s: FindingSeverity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    static func render(_ findings: [LintFinding], options: LintSARIFOptions) -> String {
        let rules = LintRule.allCases
        let helpUri = options.documentationURI + "#lint-rules"
        let driver = Driver(
            version: options.toolVersion,
            semanticVersion: isSemanticVersion(options.toolVersion) ? options.toolVersion : nil,
            informationUri: options.documentationURI,
            rules: rules.map { r in
                Rule(id: r.rawValue, name: r.name, shortDescription: Text(text: r.summary), fullDescription: Text(text: r.summary),
                     help: Help(text: r.help, markdown: "**\(r.rawValue)**: \(markdown(r.summary))\n\n\(markdown(r.help))"), helpUri: helpUri,
                     defaultConfiguration: Configuration(level: level(r.defaultSeverity)),
                     properties: RuleProperties(tags: r.tags, securitySeverity: r.securitySeverity,
                                                problemSeverity: r.defaultSeverity == .info ? "recommendation" : r.defaultSeverity.rawValue))
            })
        let results = findings.map { f in
            // Code scanning refuses a result without a location: a finding with no file (only possible for
            // sets not read from a file) is placed at the policy set's name.
            let uri = artifactURI(f.file ?? f.policySet)
            let region = f.line.map { Region(startLine: max(1, $0)) }
            return Result(ruleId: f.ruleID, ruleIndex: rules.firstIndex(of: f.rule) ?? 0, level: level(f.severity),
                          message: Text(text: "\(f.message) (hint: \(f.hint))"),
                          locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: ArtifactLocation(uri: uri),
                                                                                  region: region))],
                          partialFingerprints: [fingerprintKey: fingerprint(f)],
                          properties: Properties(policySet: f.policySet, environment: f.environment, pattern: f.pattern))
        }
        let run = Run(tool: Tool(driver: driver), results: results,
                      properties: options.publicSuffixList.map(RunProperties.init))
        return LintReport.encode(SARIFLog(runs: [run]))
    }

    /// Plain text as Markdown: the characters Markdown would read as emphasis, code or HTML (`**.example.com`,
    /// `<debug-overrides>`) are backslash-escaped.
    static func markdown(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\`*_<>[]#".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// `MAJOR.MINOR.PATCH` with an optional pre-release or build suffix.
    static func isSemanticVersion(_ v: String) -> Bool {
        let core = v.prefix { $0 != "-" && $0 != "+" }.split(separator: ".", omittingEmptySubsequences: false)
        return core.count == 3 && core.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// A path as a URI reference: relative paths stay relative (code scanning resolves them against the
    /// checkout), absolute paths become `file://` URIs; bytes other than RFC 3986 unreserved characters,
    /// sub-delimiters, `@` and `/` are escaped (`:` too, so a relative path never reads as a scheme).
    static func artifactURI(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=@".utf8)
        var out = ""
        for b in p.utf8 {
            if allowed.contains(b) { out.append(Character(Unicode.Scalar(b))) } else { out += String(format: "%%%02X", b) }
        }
        return path.hasPrefix("/") ? "file://" + out : out
    }

    /// FNV-1a (64-bit, hex) of what identifies a finding apart from its line: rule, file, set, environment,
    /// pattern and message with digits folded (a day count or a line named in the message may change).
    static func fingerprint(_ f: LintFinding) -> String {
        let message = String(f.message.map { $0.isASCII && $0.isNumber ? "0" : $0 })
        let key = [f.ruleID, f.file ?? "", f.policySet, f.environment ?? "", f.pattern ?? "", message].joined(separator: "\u{1f}")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
