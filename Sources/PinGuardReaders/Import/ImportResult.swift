import PinGuardCore

/// One thing an importer noticed: unsupported or malformed content, ignored settings, semantics notes.
public struct ImportFinding: Sendable, Equatable, CustomStringConvertible {
    /// The source file.
    public var file: String
    /// 1-based line in the source, when the format has lines (binary plists do not).
    public var line: Int?
    /// Where in a structured document, e.g. `TSKConfiguration.TSKPinnedDomains["api.example.com"]`.
    public var keyPath: String?
    /// What was found and what the importer did about it.
    public var message: String
    /// `error`: the app's own library rejects this or a pin could not be imported;
    /// `warning`: imported, but the result may differ from the app; `info`: ignored setting or note.
    public var severity: FindingSeverity

    /// Creates a finding.
    public init(file: String, line: Int?, keyPath: String? = nil, message: String, severity: FindingSeverity) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
        self.severity = severity
    }

    /// `file:line: severity: keyPath: message`, one line: control characters from the input are escaped
    /// (see `EchoedInput`) so a hostile file cannot reach the terminal through a finding.
    public var description: String {
        var s = EchoedInput.bare(file)
        if let line { s += ":\(line)" }
        s += ": \(severity.rawValue): "
        if let keyPath, !keyPath.isEmpty { s += "\(EchoedInput.bare(keyPath)): " }
        return s + EchoedInput.bare(message, limit: 2_000)
    }
}

/// An input that cannot be imported at all: unparseable, or nothing usable in it.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source file.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// What is wrong.
    public var message: String
    /// Findings gathered before giving up (why each candidate rule was refused).
    public var findings: [ImportFinding]
    /// Whether the input was refused for going past one of `ImportLimits` (size, tokens, nesting, values,
    /// constant resolution, rules or pins produced) rather than for what it configures: `lint` reports such a
    /// file as unreadable instead of as a finding.
    public var exceedsLimit: Bool
    /// Names the source uses but does not define (`--define` would supply them), in the order first met.
    public var undefinedNames: [String]

    /// Creates an error.
    public init(file: String, line: Int?, message: String, findings: [ImportFinding] = [], exceedsLimit: Bool = false,
                undefinedNames: [String] = []) {
        self.file = file
        self.line = line
        self.message = message
        self.findings = findings
        self.exceedsLimit = exceedsLimit
        self.undefinedNames = undefinedNames
    }

    /// `file:line: message`, one line with control characters escaped.
    public var description: String {
        var s = EchoedInput.bare(file)
        if let line { s += ":\(line)" }
        return s + ": " + EchoedInput.bare(message, limit: 2_000)
    }
}

/// What an import produced: the policy set, its YAML (docs/reference.md, Policy files; commented with each rule's source) and findings.
public struct ImportResult: Sendable, Equatable {
    /// The imported policy set. Source positions (`file`, rule and pin lines) point into the imported file,
    /// so lint findings on it name the app's configuration; parse `yaml` for positions in the YAML instead.
    public var policySet: PolicySet
    /// A policy file that `PolicyParser.parse` reads back to `policySet` (up to source positions).
    public var yaml: String
    /// Everything the importer noticed, by line (findings without a line last, in the order noticed).
    public var findings: [ImportFinding]
    /// Names the source uses but does not define (`--define` would supply them), in the order first met.
    public var undefinedNames: [String]

    /// Creates a result.
    public init(policySet: PolicySet, yaml: String, findings: [ImportFinding], undefinedNames: [String] = []) {
        self.policySet = policySet
        self.yaml = yaml
        self.findings = findings
        self.undefinedNames = undefinedNames
    }
}

extension PolicySet {
    /// This set without file names and line numbers, for comparing sets read from different files.
    public func strippingSourcePositions() -> PolicySet {
        var copy = self
        copy.file = nil
        copy.nameLine = nil
        for (name, env) in environments {
            var e = env
            e.line = nil
            e.rules = env.rules.map { rule in
                var r = rule
                r.line = nil
                r.policy.pins = rule.policy.pins.map { var p = $0; p.line = nil; return p }
                return r
            }
            if var d = e.defaultPolicy {
                d.pins = d.pins.map { var p = $0; p.line = nil; return p }
                e.defaultPolicy = d
            }
            copy.environments[name] = e
        }
        return copy
    }
}
