import PinGuardCore

/// What `NativeLinter.lint` read from a native file and found in it.
public struct NativeLintResult: Sendable, Equatable {
    /// The policy sets the importers read; rule and pin lines point into the native file.
    public var policySets: [PolicySet]
    /// Policy, platform and importer findings, ordered by line (findings without a line last).
    public var findings: [LintFinding]

    /// Creates a result.
    public init(policySets: [PolicySet], findings: [LintFinding]) {
        self.policySets = policySets
        self.findings = findings
    }
}
