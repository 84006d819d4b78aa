/// A position in the UTF-8 bytes of Kotlin, Java, Swift or Objective-C source, and its 1-based line: reads
/// one token at a time for `SourceTokenizer`.
///
/// Bytes are compared with literals and every loop runs on locals, written back once: an import of a
/// 4 MiB file goes through here byte by byte, and in a debug build a static constant or a property read per
/// byte doubles the time.
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
        case 0x0A: line += 1; i += 1; return nil  // newline
        case 0x20, 0x09, 0x0D, 0x0C, 0x0B: i += 1; return nil
        case 0x2F where at(i + 1) == 0x2F: skipLineComment(); return nil  // `//`
        case 0x2F where at(i + 1) == 0x2A: skipBlockComment(); return nil  // `/*`
        case 0x22 where at(i + 1) == 0x22 && at(i + 2) == 0x22: return multilineString()  // `"""`
        case 0x22: return string()
        case 0x27: return characterLiteral()  // `'`
        case 0x30...0x39: return number()
        case _ where Self.isWord(c): return word()
        default:
            i += 1
            return SourceToken(kind: .punct(Character(Unicode.Scalar(c))), line: line)
        }
    }

    /// `// …` up to the end of the line (the newline itself is the next token's business).
    mutating func skipLineComment() {
        let b = b
        var k = i
        while k < b.count && b[k] != 0x0A { k += 1 }
        i = k
    }

    /// `/* … */`; Kotlin's nest, Java's end at the first `*/`.
    mutating func skipBlockComment() {
        let b = b, nests = kotlin
        var k = i + 2, depth = 1
        func at(_ k: Int) -> UInt8 { k < b.count ? b[k] : 0 }
        while k < b.count && depth > 0 {
            if b[k] == 0x0A { line += 1 }
            if nests && b[k] == 0x2F && at(k + 1) == 0x2A { depth += 1; k += 2; continue }
            if b[k] == 0x2A && at(k + 1) == 0x2F { depth -= 1; k += 2; continue }
            k += 1
        }
        i = k
    }

    /// `"""…"""`, raw: no escapes; a template when Kotlin interpolates in it.
    mutating func multilineString() -> SourceToken {
        let b = b, start = line
        var k = i + 3
        let from = k
        func at(_ k: Int) -> UInt8 { k < b.count ? b[k] : 0 }
        while k < b.count && !(b[k] == 0x22 && at(k + 1) == 0x22 && at(k + 2) == 0x22) {
            if b[k] == 0x0A { line += 1 }
            k += 1
        }
        let value = String(decoding: b[from..<min(k, b.count)], as: UTF8.self)
        i = min(k + 3, b.count)
        return SourceToken(kind: .string(value, template: kotlin && SourceTokenizer.hasTemplate(value)), line: start)
    }

    /// `"…"` on one line, escapes undone; a template when Kotlin's `$name` or `${…}` is in it.
    mutating func string() -> SourceToken {
        let b = b, interpolates = kotlin
        var k = i + 1
        var value: [UInt8] = []
        var template = false
        while k < b.count && b[k] != 0x22 && b[k] != 0x0A {
            if b[k] == 0x5C, k + 1 < b.count {  // backslash
                value.append(SourceTokenizer.unescape(b[k + 1]))
                k += 2
                continue
            }
            if interpolates && b[k] == 0x24, k + 1 < b.count, Self.startsTemplate(b[k + 1]) { template = true }
            value.append(b[k])
            k += 1
        }
        i = k + 1
        return SourceToken(kind: .string(String(decoding: value, as: UTF8.self), template: template), line: line)
    }

    /// Whether `$` followed by `c` interpolates: `{`, `_` or a word byte that is not a digit.
    static func startsTemplate(_ c: UInt8) -> Bool {
        c == 0x7B || c == 0x5F || (isWord(c) && !(c >= 0x30 && c <= 0x39))
    }

    /// `'…'`, kept opaque.
    mutating func characterLiteral() -> SourceToken {
        let b = b
        var k = i + 1
        while k < b.count && b[k] != 0x27 && b[k] != 0x0A {
            k += b[k] == 0x5C ? 2 : 1
        }
        i = k + 1
        return SourceToken(kind: .literal, line: line)
    }

    /// A number, with its suffixes and dots, kept opaque.
    mutating func number() -> SourceToken {
        let b = b
        var k = i
        while k < b.count && (Self.isWord(b[k]) || b[k] == 0x2E) { k += 1 }
        i = k
        return SourceToken(kind: .literal, line: line)
    }

    /// An identifier or keyword.
    mutating func word() -> SourceToken {
        let b = b
        var k = i
        while k < b.count && Self.isWord(b[k]) { k += 1 }
        defer { i = k }
        return SourceToken(kind: .identifier(String(decoding: b[i..<k], as: UTF8.self)), line: line)
    }
}
