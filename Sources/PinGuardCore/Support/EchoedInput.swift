/// Input text made safe to print in an error message, a log line or a journal field.
///
/// Anything read from a file can reach a terminal or the journal through an error, so every echo
/// goes through here: control characters (C0, DEL, C1), line and paragraph separators and the
/// bidirectional overrides are shown as escapes (`\x1b`, `\u{2028}`), and the text is cut after
/// `limit` characters with an ellipsis, so a 10 MB line costs 200 characters of output.
public struct EchoedInput: Sendable, Equatable, CustomStringConvertible {
    /// Characters kept before the ellipsis.
    public static let defaultLimit = 200

    /// The escaped (and possibly shortened) text, without quotes.
    public let escaped: String
    /// Whether the input was longer than the limit.
    public let truncated: Bool

    /// Escapes and shortens `text`; with `quoting`, `"` and `\` are escaped too so the result can be
    /// shown between double quotes without ambiguity.
    public init(_ text: some StringProtocol, limit: Int = EchoedInput.defaultLimit, quoting: Bool = true) {
        var out = ""
        var count = 0
        var truncated = false
        for scalar in text.unicodeScalars {
            if count >= max(limit, 0) {
                truncated = true
                break
            }
            count += 1
            out += Self.escape(scalar, quoting: quoting)
        }
        self.escaped = out
        self.truncated = truncated
    }

    /// The text between double quotes, with an ellipsis after the closing quote when it was cut:
    /// `"abc"…`.
    public var description: String { "\"\(escaped)\"" + (truncated ? "…" : "") }

    /// `text` between double quotes, escaped and cut at `limit` characters.
    public static func quoted(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        EchoedInput(text, limit: limit).description
    }

    /// `text` without quotes, control characters escaped and cut at `limit` characters (for key paths,
    /// file names and whole messages, where quotes would get in the way).
    public static func bare(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        let e = EchoedInput(text, limit: limit, quoting: false)
        return e.escaped + (e.truncated ? "…" : "")
    }

    /// Whether `scalar` must never be printed as is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true          // C0, DEL, C1 (ESC, BEL, CSI, NEL ...)
        case 0x2028, 0x2029: return true                     // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: return true   // bidirectional embeddings and isolates
        case 0x200E, 0x200F, 0x061C, 0xFEFF: return true     // direction marks, byte order mark
        default: return false
        }
    }

    static func escape(_ scalar: Unicode.Scalar, quoting: Bool) -> String {
        switch scalar {
        case "\"" where quoting: return "\\\""
        case "\\" where quoting: return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            guard isUnsafe(scalar) else { return String(Character(scalar)) }
            let hex = String(scalar.value, radix: 16)
            return scalar.value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}"
        }
    }
}
