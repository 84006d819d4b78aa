import PinGuardCore

/// Splits Kotlin, Java, Swift or Objective-C source into tokens, dropping comments and whitespace.
///
/// Works on UTF-8 bytes (non-ASCII bytes count as identifier characters), so the time is linear in the input
/// with a small constant and no per-character grapheme work.
enum SourceTokenizer {
    /// Tokens of `text`; `kotlin` enables `$` templates and raw `"""` strings (Swift's `"""` strings too).
    /// Throws when the text has more than `ImportLimits.maxTokens` tokens.
    static func tokenize(_ text: String, kotlin: Bool, file: String) throws(ImportError) -> [SourceToken] {
        var cursor = SourceTokenCursor(Array(text.utf8), kotlin: kotlin)
        var tokens: [SourceToken] = []
        while !cursor.atEnd {
            if tokens.count > ImportLimits.maxTokens {
                throw ImportError(file: file, line: cursor.line, message: "more than \(ImportLimits.maxTokens) tokens; refused",
                                  exceedsLimit: true)
            }
            if let token = cursor.next() { tokens.append(token) }
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
