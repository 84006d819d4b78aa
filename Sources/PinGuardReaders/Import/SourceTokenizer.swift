import PinGuardCore

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

/// Splits Kotlin, Java, Swift or Objective-C source into tokens, dropping comments and whitespace.
///
/// Works on UTF-8 bytes (non-ASCII bytes count as identifier characters), so the time is linear in the input
/// with a small constant and no per-character grapheme work.
enum SourceTokenizer {
    /// Tokens of `text`; `kotlin` enables `$` templates and raw `"""` strings (Swift's `"""` strings too).
    /// Throws when the text has more than `ImportLimits.maxTokens` tokens.
    static func tokenize(_ text: String, kotlin: Bool, file: String) throws(ImportError) -> [SourceToken] {
        let b = Array(text.utf8)
        var tokens: [SourceToken] = []
        var i = 0
        var line = 1
        func at(_ k: Int) -> UInt8 { k < b.count ? b[k] : 0 }
        func isWord(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x24 || c >= 0x80
        }
        let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(0x0A)
        while i < b.count {
            if tokens.count > ImportLimits.maxTokens {
                throw ImportError(file: file, line: line, message: "more than \(ImportLimits.maxTokens) tokens; refused",
                                  exceedsLimit: true)
            }
            let c = b[i]
            if c == newline { line += 1; i += 1; continue }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C || c == 0x0B { i += 1; continue }
            if c == slash && at(i + 1) == slash {
                while i < b.count && b[i] != newline { i += 1 }
                continue
            }
            if c == slash && at(i + 1) == star {
                var depth = 1
                i += 2
                while i < b.count && depth > 0 {
                    if b[i] == newline { line += 1 }
                    if kotlin && b[i] == slash && at(i + 1) == star { depth += 1; i += 2; continue }
                    if b[i] == star && at(i + 1) == slash { depth -= 1; i += 2; continue }
                    i += 1
                }
                continue
            }
            if c == quote {
                let start = line
                if at(i + 1) == quote && at(i + 2) == quote {
                    i += 3
                    let from = i
                    while i < b.count && !(b[i] == quote && at(i + 1) == quote && at(i + 2) == quote) {
                        if b[i] == newline { line += 1 }
                        i += 1
                    }
                    let value = String(decoding: b[from..<min(i, b.count)], as: UTF8.self)
                    i = min(i + 3, b.count)
                    tokens.append(SourceToken(kind: .string(value, template: kotlin && hasTemplate(value)), line: start))
                    continue
                }
                i += 1
                var value: [UInt8] = []
                var template = false
                while i < b.count && b[i] != quote && b[i] != newline {
                    if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                        value.append(unescape(b[i + 1]))
                        i += 2
                        continue
                    }
                    if kotlin && b[i] == UInt8(ascii: "$"), i + 1 < b.count,
                       b[i + 1] == UInt8(ascii: "{") || b[i + 1] == 0x5F || (isWord(b[i + 1]) && !(b[i + 1] >= 0x30 && b[i + 1] <= 0x39)) {
                        template = true
                    }
                    value.append(b[i])
                    i += 1
                }
                i += 1
                tokens.append(SourceToken(kind: .string(String(decoding: value, as: UTF8.self), template: template), line: start))
                continue
            }
            if c == UInt8(ascii: "'") {
                i += 1
                while i < b.count && b[i] != UInt8(ascii: "'") && b[i] != newline {
                    i += b[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i += 1
                tokens.append(SourceToken(kind: .literal, line: line))
                continue
            }
            if c >= 0x30 && c <= 0x39 {
                while i < b.count && (isWord(b[i]) || b[i] == UInt8(ascii: ".")) { i += 1 }
                tokens.append(SourceToken(kind: .literal, line: line))
                continue
            }
            if isWord(c) {
                let from = i
                while i < b.count && isWord(b[i]) { i += 1 }
                tokens.append(SourceToken(kind: .identifier(String(decoding: b[from..<i], as: UTF8.self)), line: line))
                continue
            }
            tokens.append(SourceToken(kind: .punct(Character(Unicode.Scalar(c))), line: line))
            i += 1
        }
        return tokens
    }

    static func unescape(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "0"): return 0
        default: return c
        }
    }

    static func hasTemplate(_ s: String) -> Bool {
        let chars = Array(s.utf8)
        for (i, c) in chars.enumerated() where c == UInt8(ascii: "$") && i + 1 < chars.count {
            let n = chars[i + 1]
            if n == UInt8(ascii: "{") || n == 0x5F || (n >= 0x61 && n <= 0x7A) || (n >= 0x41 && n <= 0x5A) || n >= 0x80 { return true }
        }
        return false
    }
}
