import Foundation
import PinGuardCore

/// A rule on its way out of an importer: the pattern rule plus comment lines naming its source.
struct ImportedRule {
    /// The pattern.
    var pattern: HostPattern
    /// The policy.
    var policy: HostPolicy
    /// Source line of the rule.
    var line: Int?
    /// Comment lines written before the rule in the YAML (`file:line key`, notes).
    var origin: [String]
}

/// Collects rules and findings while an importer walks its input, then builds the result.
struct ImportDraft {
    /// Source file, as given by the caller.
    let file: String
    /// The format being imported.
    let format: PolicyImportFormat
    /// Rules in output order.
    private(set) var rules: [ImportedRule] = []
    /// Index in `rules` of each pattern, so adding n rules takes linear time.
    private var ruleIndex: [HostPattern: Int] = [:]
    /// Findings in source order.
    private(set) var findings: [ImportFinding] = []
    /// App version, when the source names one (Info.plist `CFBundleShortVersionString`).
    var version: String?
    /// Whether a finding so far says pins may be in the file unread (every error and warning, except the
    /// settings recorded with `noteSetting`): then a file without rules is not one that pins nothing.
    private(set) var pinsMayBeUnread = false
    /// Names the source uses that nothing defines, in the order first met (for the `--define` suggestion).
    private(set) var undefinedNames: [String] = []
    /// `undefinedNames` as a set, so adding is constant time.
    private var undefinedSet: Set<String> = []
    /// What a file that pins nothing does configure, in source order (e.g. `<base-config> (line 3)`).
    var configures: [String] = []
    /// Why nothing could be imported, when the importer knows better than "no usable configuration".
    var nothingImportedBecause: String?

    /// The client the imported set stands for, for Certificate Transparency.
    var client: CTClient
    /// What the source says about CT, when it says anything (an Android file's `<certificateTransparency>`).
    var certificateTransparency: CTRequirement?
    /// The client versions the app runs on, when the app declares them (an Android app's `minSdk`).
    var clientVersions: ClientVersions?

    init(file: String, format: PolicyImportFormat) {
        self.file = file
        self.format = format
        self.client = format.client
    }

    /// Records a finding.
    mutating func note(_ severity: FindingSeverity, line: Int?, keyPath: String? = nil, _ message: String) {
        if severity != .info { pinsMayBeUnread = true }
        findings.append(ImportFinding(file: file, line: line, keyPath: keyPath, message: message, severity: severity))
    }

    /// Records a finding about a setting that holds no pins (`<debug-overrides>`): even as a warning it does not
    /// make a file without rules one whose pins went unread.
    mutating func noteSetting(_ severity: FindingSeverity, line: Int?, _ message: String) {
        findings.append(ImportFinding(file: file, line: line, message: message, severity: severity))
    }

    /// Records names the source uses but does not define, once each.
    mutating func needs(_ names: [String]) {
        for name in names where undefinedSet.insert(name).inserted { undefinedNames.append(name) }
    }

    /// `file:line` or `file` for comments.
    func position(_ line: Int?) -> String {
        line.map { "\(file):\($0)" } ?? file
    }

    /// Parses a host pattern, recording an error finding when it is not one.
    mutating func pattern(_ text: String, line: Int?, keyPath: String? = nil) -> HostPattern? {
        do {
            return try HostPattern.parse(text)
        } catch {
            note(.error, line: line, keyPath: keyPath, "\(error.message); rule not imported")
            return nil
        }
    }

    /// Adds a rule; a pattern that is already defined is refused with an error finding.
    @discardableResult
    mutating func add(_ rule: ImportedRule, keyPath: String? = nil) -> Bool {
        if let k = ruleIndex[rule.pattern] {
            let first = rules[k]
            let at = first.line.map { " on line \($0)" } ?? ""
            note(.error, line: rule.line, keyPath: keyPath,
                 "pattern \"\(rule.pattern)\" is already defined\(at); this definition is not imported")
            return false
        }
        ruleIndex[rule.pattern] = rules.count
        rules.append(rule)
        return true
    }

    /// Changes every rule in place (a setting read after the rules, as Android's per-domain CT); patterns stay.
    mutating func updateRules(_ change: (inout ImportedRule) -> Void) {
        for k in rules.indices {
            change(&rules[k])
        }
    }

    /// Appends `pin` unless an equal pin is already present (the formats treat pins as a set).
    mutating func append(_ pin: Pin, to pins: inout [Pin], keyPath: String? = nil) {
        if pins.contains(pin) {
            note(.info, line: pin.line, keyPath: keyPath, "duplicate pin \(pin.hash) listed once")
            return
        }
        pins.append(pin)
    }

    /// Appends `pin` unless an equal pin is already present, in constant time.
    mutating func append(_ pin: Pin, to pins: inout DistinctPins, keyPath: String? = nil) {
        if !pins.insert(pin) { note(.info, line: pin.line, keyPath: keyPath, "duplicate pin \(pin.hash) listed once") }
    }

    /// Refuses an import whose policy would hold more than `ImportLimits.maxImportedRules` rules or
    /// `ImportLimits.maxImportedPins` pins in all (so the policy file stays within the policy reader's node budget),
    /// naming the line of the rule that goes past the limit.
    func checkOutputLimits() throws(ImportError) {
        var pins = 0
        for (k, rule) in rules.enumerated() {
            pins += rule.policy.pins.count
            guard k >= ImportLimits.maxImportedRules || pins > ImportLimits.maxImportedPins else { continue }
            throw tooMany(rules: k >= ImportLimits.maxImportedRules, line: rule.line)
        }
    }

    /// The refusal of an import that produces more than `ImportLimits.maxImportedRules` rules (`rules`) or more than
    /// `ImportLimits.maxImportedPins` pins in all, at the rule of `line`.
    func tooMany(rules: Bool, line: Int?) -> ImportError {
        let what = rules ? "more than \(ImportLimits.maxImportedRules) rules" : "more than \(ImportLimits.maxImportedPins) pins in all"
        return ImportError(file: file, line: line,
                           message: "\(what): an import produces at most \(ImportLimits.maxImportedRules) rules and "
                               + "\(ImportLimits.maxImportedPins) pins; refused (split the configuration)",
                           exceedsLimit: true)
    }

    /// Builds the policy set and its YAML; throws when no rule could be imported or too many would be.
    func finish(name: String, environment: String) throws(ImportError) -> ImportResult {
        var all = self.findings
        // A well-formed configuration that pins nothing is an answer, not a failure: the app pins nothing.
        // Only when nothing was left unread: a warning (an unresolved name, an unread certificate) means pins may exist.
        let pinsNothing = rules.isEmpty && !all.isEmpty && !pinsMayBeUnread
        if pinsNothing { all.append(pinsNothingFinding()) }
        let findings = ImportDraft.byLine(all)
        guard !rules.isEmpty || pinsNothing else {
            let why = nothingImportedBecause ?? "no usable \(format.rawValue) pin configuration found"
            throw ImportError(file: file, line: nil, message: "nothing to import: \(why)", findings: findings,
                              undefinedNames: undefinedNames)
        }
        try checkOutputLimits()
        let env = PolicyEnvironment(rules: rules.map { PatternRule(pattern: $0.pattern, policy: $0.policy, line: $0.line) })
        var set = PolicySet(name: name, version: version, environments: [environment: env], file: file)
        set.client = client
        set.certificateTransparency = certificateTransparency
        set.clientVersions = client == .none || client == .jvm ? nil : clientVersions
        var header = ["Imported by `pinguard import --format \(format.rawValue)` from \(file).",
                      "Each rule's comment names its source. Review the findings before relying on this file."]
        if !findings.isEmpty {
            header.append("Findings:")
            header += findings.map { "  \($0.description)" }
        }
        let yaml = PolicyYAMLWriter.write(set, environment: environment, rules: rules, header: header)
        // The YAML is the product; refuse to hand out one that does not mean what the model says.
        let reparsed: PolicySet
        do {
            reparsed = try PolicyParser.parse(yaml, file: file)
        } catch {
            throw ImportError(file: file, line: nil, message: "internal error: emitted YAML does not parse: \(error)",
                              findings: findings)
        }
        guard reparsed.strippingSourcePositions() == set.strippingSourcePositions() else {
            throw ImportError(file: file, line: nil, message: "internal error: emitted YAML does not round-trip",
                              findings: findings)
        }
        return ImportResult(policySet: set, yaml: yaml, findings: findings, undefinedNames: undefinedNames)
    }

    /// `findings` by line, those without a line last, each group in the order noticed.
    static func byLine(_ findings: [ImportFinding]) -> [ImportFinding] {
        findings.enumerated()
            .sorted { ($0.element.line ?? .max, $0.offset) < ($1.element.line ?? .max, $1.offset) }
            .map(\.element)
    }

    /// "the app pins nothing in this configuration: no pins are enforced", with what the file configures instead.
    func pinsNothingFinding() -> ImportFinding {
        let what = configures.isEmpty ? "" : "; it configures \(configures.joined(separator: ", "))"
        return ImportFinding(file: file, line: nil, message: "the app pins nothing in this configuration: no pins are enforced\(what)",
                             severity: .info)
    }
}
