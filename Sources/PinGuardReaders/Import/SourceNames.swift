import PinGuardCore

/// Tokens that listing undefined names may visit in all, for one source file. Every `add(…)` argument and every
/// TrustKit entry is listed on its own, and nested calls give overlapping ranges: without a bound, a file of n
/// nested calls would cost n² here. Past the bound, names are no longer listed (the warnings stay).
final class SourceNameScanBudget {
    /// Tokens still to visit.
    private(set) var left: Int

    /// A budget of four visits per token of the file, and at least 4,096.
    init(tokens: Int) {
        left = 4 * tokens + 4_096
    }

    /// Charges `tokens` visits; false once the budget is spent.
    func spend(_ tokens: Int) -> Bool {
        guard left > 0 else { return false }
        left -= tokens
        return true
    }
}

/// Which identifiers of an expression are names `--define` would supply: constants, fields (`BuildConfig.API_URL`,
/// `Constants.PIN_1`), variables and obfuscated members (`a.b`, `C0581a.f1234b`), but not the calls, constructors,
/// types, keywords, argument labels and members that sit around them (`URI(…)`, `.host`, `String.format`,
/// `new String[]`, `URL(string:)`, Objective-C selectors).
extension SourceConstants {
    /// Keywords and literals of Kotlin, Java, Swift and Objective-C that read like identifiers.
    static let keywords: Set<String> = [
        "new", "this", "self", "super", "null", "nil", "Nil", "NULL", "true", "false", "YES", "NO", "return", "as", "is",
        "in", "it", "val", "var", "let", "const", "static", "final", "if", "else", "when", "try", "await", "throw",
        "object", "class", "fun", "func", "instanceof", "private", "public", "internal", "default",
    ]

    /// Single-word types written in capitals, which the case of the name does not tell from a constant.
    static let capitalTypes: Set<String> = ["URI", "URL", "UUID", "NSURL", "NSString", "NSArray", "NSDictionary"]

    /// The names in `range` that no constant defines, in order, each once; constants too long to resolve are not
    /// listed, as their definition has its own warning.
    func unresolved(_ s: SourceScanner, _ range: Range<Int>) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        var k = range.lowerBound
        while k < range.upperBound {
            guard s[k].identifier != nil, k == range.lowerBound || !s[k - 1].isPunct(".") else {
                guard nameScan.spend(1) else { break }
                k += 1
                continue
            }
            let (written, next) = SourceConstants.dottedName(s, at: k)
            guard nameScan.spend(next - k) else { break }
            if let name = nameToDefine(s, written, at: k, next: next), lookup(name) == nil, !isOversized(name),
               seen.insert(name).inserted {
                out.append(name)
            }
            k = max(next, k + 1)
        }
        return out
    }

    /// The name `--define` would supply for the dotted name `written` at `k` (ending before `next`), or nil when
    /// it is a call, a type, a keyword, a label or a TrustKit constant.
    func nameToDefine(_ s: SourceScanner, _ written: String, at k: Int, next: Int) -> String? {
        var name = written
        for receiver in ["this.", "self."] where name.hasPrefix(receiver) { name.removeFirst(receiver.count) }
        guard !SourceConstants.keywords.contains(name), !name.hasPrefix("kTSK") else { return nil }
        let after = next < s.count ? s[next] : nil
        if after?.isPunct("(") == true {
            // A call is no name; the receiver of a conversion pinguard evaluates (`BuildConfig.API_URL.toHttpUrl()`) is.
            guard let dot = name.lastIndex(of: "."),
                  SourceConstants.urlConversions.contains(String(name[name.index(after: dot)...])) else { return nil }
            return String(name[..<dot])
        }
        let single = !name.contains(".")
        // `String x`, `new String[]`, `[NSString stringWithFormat:…]`, `(String) x`, `listOf<String>(…)`.
        if single, SourceConstants.isTypeName(name) || after?.isPunct("<") == true { return nil }
        return isLabelOrSelector(s, at: k) ? nil : name
    }

    /// Whether the identifier at `k` is a Swift argument label (`URL(string: …)`) or part of an Objective-C
    /// selector (`[NSString stringWithFormat:…]`), not a value.
    func isLabelOrSelector(_ s: SourceScanner, at k: Int) -> Bool {
        guard k >= 1, let open = s.enclosing(k) else { return false }
        let before = s[k - 1]
        let colon = k + 1 < s.count && s[k + 1].isPunct(":") && !(k + 2 < s.count && s[k + 2].isPunct(":"))
        if s[open].isPunct("(") { return colon && (before.isPunct("(") || before.isPunct(",")) }
        guard s[open].isPunct("["), k - 1 > open else { return false }
        // In a message `[receiver selector:arg …]` a selector part follows the receiver or an argument.
        if before.identifier != nil || before.isPunct(")") || before.isPunct("]") { return true }
        if case .string = before.kind { return colon }
        return false
    }

    /// Whether a single identifier reads as a type (`String`, `HttpUrl`, `C0581a`, `URI`) rather than a constant
    /// (`PIN`, `API_HOST`) or a variable (`mainPublicKey`).
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.first, first.isUppercase else { return false }
        return capitalTypes.contains(name) || name.contains { $0.isLowercase }
    }
}
