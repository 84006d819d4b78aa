/// A minimal SARIF 2.1.0 log of lint findings: one run, the tool's rules, one result per finding.
struct SARIFLog: Encodable {
    struct Text: Encodable {
        let text: String
    }

    struct Configuration: Encodable {
        let level: String
    }

    struct Rule: Encodable {
        let id: String
        let shortDescription: Text
        let defaultConfiguration: Configuration
    }

    struct Driver: Encodable {
        let name: String
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
        let properties: Properties
    }

    struct Run: Encodable {
        let tool: Tool
        let results: [Result]
    }

    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    let version = "2.1.0"
    let runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, runs
    }

    static func level(_ s: FindingSeverity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    static func render(_ findings: [LintFinding]) -> String {
        let rules = LintRule.allCases
        let driver = Driver(name: "pinguard", rules: rules.map {
                                Rule(id: $0.rawValue, shortDescription: Text(text: $0.summary),
                                     defaultConfiguration: Configuration(level: level($0.defaultSeverity)))
                            })
        let results = findings.map { f in
            Result(ruleId: f.ruleID, ruleIndex: rules.firstIndex(of: f.rule) ?? 0, level: level(f.severity),
                   message: Text(text: "\(f.message) (hint: \(f.hint))"),
                   locations: f.file.map { file in
                       [Location(physicalLocation: PhysicalLocation(artifactLocation: ArtifactLocation(uri: file),
                                                                    region: f.line.map { Region(startLine: max(1, $0)) }))]
                   } ?? [],
                   properties: Properties(policySet: f.policySet, environment: f.environment, pattern: f.pattern))
        }
        return LintReport.encode(SARIFLog(runs: [Run(tool: Tool(driver: driver), results: results)]))
    }
}
