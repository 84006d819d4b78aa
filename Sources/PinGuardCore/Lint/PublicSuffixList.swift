/// The Public Suffix List (publicsuffix.org): domains under which anyone can register names, such as `com`,
/// `co.uk` or `github.io`. A pin pattern covering every name under one pins other people's hosts.
public struct PublicSuffixList: Sendable, Equatable {
    /// Plain rules (`co.uk`).
    var suffixes: Set<String>
    /// Wildcard rules, stored without the `*.` (`*.ck` is stored as `ck`).
    var wildcards: Set<String>
    /// Exception rules, stored without the `!` (`!www.ck` is stored as `www.ck`).
    var exceptions: Set<String>

    /// Parses the list format: one rule per line, `//` comments, `*.` wildcards, `!` exceptions; the first
    /// whitespace-separated word of a line is the rule. Both the ICANN and the private sections are used.
    public init(text: String) {
        var suffixes = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        // Scalars, not characters: the same lines (a CR LF pair leaves an empty line between), at a fraction
        // of the cost of grapheme breaking over the whole list.
        for raw in text.unicodeScalars.split(whereSeparator: Self.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty, !line.starts(with: "//".unicodeScalars) else { continue }
            let rule = String(line.prefix { $0 != " " && $0 != "\t" }).lowercased()
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                suffixes.insert(rule)
            }
        }
        self.suffixes = suffixes
        self.wildcards = wildcards
        self.exceptions = exceptions
    }

    /// The scalars `Character.isNewline` is true for: LF, VT, FF, CR, NEL, LS and PS.
    static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
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
