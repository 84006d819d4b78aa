/// A token of Kotlin or Java source, with its 1-based line.
struct SourceToken: Equatable {
    /// Token kinds the OkHttp importer needs.
    enum Kind: Equatable {
        /// An identifier or keyword.
        case identifier(String)
        /// A string literal's value; `template` when it interpolates (`$x`, `${…}`) and so is not a constant.
        case string(String, template: Bool)
        /// A number or character literal (kept opaque).
        case literal
        /// Any other single character: `.`, `(`, `,`, `+`, `*`, `{`, …
        case punct(Character)
    }

    var kind: Kind
    var line: Int

    /// Whether this is the punctuation `c`.
    func isPunct(_ c: Character) -> Bool {
        if case .punct(let p) = kind { return p == c }
        return false
    }

    /// The identifier text, if this is one.
    var identifier: String? {
        if case .identifier(let s) = kind { return s }
        return nil
    }
}
