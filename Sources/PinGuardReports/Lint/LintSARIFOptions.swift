import PinGuardCore
/// What a SARIF lint report says about the tool and its run, beyond the findings.
public struct LintSARIFOptions: Sendable, Equatable {
    /// Where pinguard's documentation lives unless `--docs-url` says otherwise; rule `helpUri`s point at the
    /// lint section of the reference under it.
    public static let defaultDocumentationURI = "https://github.com/pinguard/pinguard/blob/main/docs/reference.md"

    /// `tool.driver.version` (and `semanticVersion`).
    public var toolVersion: String
    /// `tool.driver.informationUri`; rule `helpUri`s are this plus `#rule-ID`.
    public var documentationURI: String
    /// Which public suffix list the run used, as a run property (`publicSuffixList`); nil leaves it out.
    public var publicSuffixList: String?

    /// Creates options.
    public init(toolVersion: String = "0.0.0", documentationURI: String = LintSARIFOptions.defaultDocumentationURI,
                publicSuffixList: String? = nil) {
        self.toolVersion = toolVersion
        self.documentationURI = documentationURI
        self.publicSuffixList = publicSuffixList
    }
}
