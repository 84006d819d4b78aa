/// The Public Suffix List (publicsuffix.org): domains under which anyone can register names, such as `com`,
/// `co.uk` or `github.io`. A pin pattern covering every name under one pins other people's hosts.
public struct PublicSuffixList: Sendable, Equatable {
    /// Plain rules (`co.uk`).
    var suffixes: Set<String>
    /// Wildcard rules, stored without the `*.` (`*.ck` is stored as `ck`).
    var wildcards: Set<String>
    /// Exception rules, stored without the `!` (`!www.ck` is stored as `www.ck`).
    var exceptions: Set<String>

    /// A list of these rules (lower case, without `*.` and `!`); the file format is read by the readers'
    /// `PublicSuffixList(text:)`.
    public init(suffixes: Set<String>, wildcards: Set<String>, exceptions: Set<String>) {
        self.suffixes = suffixes
        self.wildcards = wildcards
        self.exceptions = exceptions
    }

    /// Number of rules read.
    public var count: Int { suffixes.count + wildcards.count + exceptions.count }

    /// Whether `domain` is itself a public suffix. A single label is one by the list's implicit `*` rule.
    public func isPublicSuffix(_ domain: String) -> Bool {
        let d = HostPattern.normalize(domain)
        guard !d.isEmpty else { return false }
        if exceptions.contains(d) { return false }
        if suffixes.contains(d) { return true }
        guard let dot = d.firstIndex(of: ".") else { return true }
        return wildcards.contains(String(d[d.index(after: dot)...]))
    }
}
