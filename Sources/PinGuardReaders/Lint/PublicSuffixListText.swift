import PinGuardCore

extension PublicSuffixList {
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
        self.init(suffixes: suffixes, wildcards: wildcards, exceptions: exceptions)
    }

    /// The scalars `Character.isNewline` is true for: LF, VT, FF, CR, NEL, LS and PS.
    static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
