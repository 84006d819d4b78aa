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

/// Splits Kotlin or Java source into tokens, dropping comments and whitespace.
enum SourceTokenizer {
    /// Tokens of `text`; `kotlin` enables `$` templates and raw `"""` strings.
    static func tokenize(_ text: String, kotlin: Bool) -> [SourceToken] {
        let chars = Array(text)
        var tokens: [SourceToken] = []
        var i = 0
        var line = 1
        func peek(_ k: Int) -> Character? { i + k < chars.count ? chars[i + k] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" { line += 1; i += 1; continue }
            if c.isWhitespace { i += 1; continue }
            if c == "/" && peek(1) == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
                continue
            }
            if c == "/" && peek(1) == "*" {
                var depth = 1
                i += 2
                while i < chars.count && depth > 0 {
                    if chars[i] == "\n" { line += 1 }
                    if kotlin && chars[i] == "/" && peek(1) == "*" { depth += 1; i += 2; continue }
                    if chars[i] == "*" && peek(1) == "/" { depth -= 1; i += 2; continue }
                    i += 1
                }
                continue
            }
            if c == "\"" {
                let start = line
                if peek(1) == "\"" && peek(2) == "\"" {
                    i += 3
                    var value = ""
                    while i < chars.count && !(chars[i] == "\"" && peek(1) == "\"" && peek(2) == "\"") {
                        if chars[i] == "\n" { line += 1 }
                        value.append(chars[i])
                        i += 1
                    }
                    i = min(i + 3, chars.count)
                    tokens.append(SourceToken(kind: .string(value, template: kotlin && hasTemplate(value)), line: start))
                    continue
                }
                i += 1
                var value = ""
                var template = false
                while i < chars.count && chars[i] != "\"" && chars[i] != "\n" {
                    if chars[i] == "\\", let next = peek(1) {
                        value.append(unescape(next))
                        i += 2
                        continue
                    }
                    if kotlin && chars[i] == "$", let next = peek(1), next == "{" || next.isLetter || next == "_" {
                        template = true
                    }
                    value.append(chars[i])
                    i += 1
                }
                i += 1
                tokens.append(SourceToken(kind: .string(value, template: template), line: start))
                continue
            }
            if c == "'" {
                i += 1
                while i < chars.count && chars[i] != "'" && chars[i] != "\n" {
                    i += chars[i] == "\\" ? 2 : 1
                }
                i += 1
                tokens.append(SourceToken(kind: .literal, line: line))
                continue
            }
            if c.isLetter || c == "_" || c == "$" {
                var word = ""
                while i < chars.count && (chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "$") {
                    word.append(chars[i])
                    i += 1
                }
                tokens.append(SourceToken(kind: .identifier(word), line: line))
                continue
            }
            if c.isNumber {
                while i < chars.count && (chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == ".") {
                    i += 1
                }
                tokens.append(SourceToken(kind: .literal, line: line))
                continue
            }
            tokens.append(SourceToken(kind: .punct(c), line: line))
            i += 1
        }
        return tokens
    }

    static func unescape(_ c: Character) -> Character {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        default: return c
        }
    }

    static func hasTemplate(_ s: String) -> Bool {
        let chars = Array(s)
        for (i, c) in chars.enumerated() where c == "$" && i + 1 < chars.count {
            if chars[i + 1] == "{" || chars[i + 1].isLetter || chars[i + 1] == "_" { return true }
        }
        return false
    }
}
