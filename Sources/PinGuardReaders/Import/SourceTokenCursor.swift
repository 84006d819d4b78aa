/// A position in the UTF-8 bytes of Kotlin, Java, Swift or Objective-C source, and its 1-based line: reads
/// one token at a time for `SourceTokenizer`.
struct SourceTokenCursor {
    let b: [UInt8]
    /// Whether `$` templates and nested block comments are Kotlin's.
    let kotlin: Bool
    var i = 0
    var line = 1

    init(_ bytes: [UInt8], kotlin: Bool) {
        b = bytes
        self.kotlin = kotlin
    }

    var atEnd: Bool { i >= b.count }

    static let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(0x0A)
    static let apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\"), dollar = UInt8(ascii: "$")

    /// The byte at `k`, 0 past the end.
    func at(_ k: Int) -> UInt8 { k < b.count ? b[k] : 0 }

    /// Letters, digits, `_`, `$` and every non-ASCII byte.
    static func isWord(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    /// The token that starts at the cursor, or nil for what is dropped (white space, comments); either way
    /// the cursor moves past it. Not at the end.
    mutating func next() -> SourceToken? {
        let c = b[i]
        switch c {
        case Self.newline: line += 1; i += 1; return nil
        case 0x20, 0x09, 0x0D, 0x0C, 0x0B: i += 1; return nil
        case Self.slash where at(i + 1) == Self.slash: skipLineComment(); return nil
        case Self.slash where at(i + 1) == Self.star: skipBlockComment(); return nil
        case Self.quote where at(i + 1) == Self.quote && at(i + 2) == Self.quote: return multilineString()
        case Self.quote: return string()
        case Self.apostrophe: return characterLiteral()
        case 0x30...0x39: return number()
        case _ where Self.isWord(c): return word()
        default:
            i += 1
            return SourceToken(kind: .punct(Character(Unicode.Scalar(c))), line: line)
        }
    }

    /// `// …` up to the end of the line (the newline itself is the next token's business).
    mutating func skipLineComment() {
        while i < b.count && b[i] != Self.newline { i += 1 }
    }

    /// `/* … */`; Kotlin's nest, Java's end at the first `*/`.
    mutating func skipBlockComment() {
        var depth = 1
        i += 2
        while i < b.count && depth > 0 {
            if b[i] == Self.newline { line += 1 }
            if kotlin && b[i] == Self.slash && at(i + 1) == Self.star { depth += 1; i += 2; continue }
            if b[i] == Self.star && at(i + 1) == Self.slash { depth -= 1; i += 2; continue }
            i += 1
        }
    }

    /// `"""…"""`, raw: no escapes; a template when Kotlin interpolates in it.
    mutating func multilineString() -> SourceToken {
        let start = line
        i += 3
        let from = i
        while i < b.count && !(b[i] == Self.quote && at(i + 1) == Self.quote && at(i + 2) == Self.quote) {
            if b[i] == Self.newline { line += 1 }
            i += 1
        }
        let value = String(decoding: b[from..<min(i, b.count)], as: UTF8.self)
        i = min(i + 3, b.count)
        return SourceToken(kind: .string(value, template: kotlin && SourceTokenizer.hasTemplate(value)), line: start)
    }

    /// `"…"` on one line, escapes undone; a template when Kotlin's `$name` or `${…}` is in it.
    mutating func string() -> SourceToken {
        let start = line
        i += 1
        var value: [UInt8] = []
        var template = false
        while i < b.count && b[i] != Self.quote && b[i] != Self.newline {
            if b[i] == Self.backslash, i + 1 < b.count {
                value.append(SourceTokenizer.unescape(b[i + 1]))
                i += 2
                continue
            }
            if kotlin && b[i] == Self.dollar, i + 1 < b.count, startsTemplate(b[i + 1]) { template = true }
            value.append(b[i])
            i += 1
        }
        i += 1
        return SourceToken(kind: .string(String(decoding: value, as: UTF8.self), template: template), line: start)
    }

    /// Whether `$` followed by `c` interpolates: `{`, `_` or a word byte that is not a digit.
    func startsTemplate(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "{") || c == 0x5F || (Self.isWord(c) && !(c >= 0x30 && c <= 0x39))
    }

    /// `'…'`, kept opaque.
    mutating func characterLiteral() -> SourceToken {
        i += 1
        while i < b.count && b[i] != Self.apostrophe && b[i] != Self.newline {
            i += b[i] == Self.backslash ? 2 : 1
        }
        i += 1
        return SourceToken(kind: .literal, line: line)
    }

    /// A number, with its suffixes and dots, kept opaque.
    mutating func number() -> SourceToken {
        while i < b.count && (Self.isWord(b[i]) || b[i] == UInt8(ascii: ".")) { i += 1 }
        return SourceToken(kind: .literal, line: line)
    }

    /// An identifier or keyword.
    mutating func word() -> SourceToken {
        let from = i
        while i < b.count && Self.isWord(b[i]) { i += 1 }
        return SourceToken(kind: .identifier(String(decoding: b[from..<i], as: UTF8.self)), line: line)
    }
}
