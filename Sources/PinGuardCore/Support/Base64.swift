import Foundation

/// Strict standard base64 (RFC 4648 §4, padded), without Foundation's leniency.
public enum Base64 {
    /// Encodes bytes as padded standard base64.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }

    /// Decodes padded standard base64; nil for anything else (whitespace, URL alphabet, bad padding).
    public static func decode(_ text: String) -> [UInt8]? {
        // By byte: text made only of the alphabet has one byte per character, and any other byte belongs to
        // a character outside it. Building a Set of characters per call cost a quarter of reading a
        // 10,000-pin policy.
        guard !text.isEmpty, text.utf8.count % 4 == 0, text.utf8.allSatisfy(isAlphabet) else { return nil }
        guard let data = Data(base64Encoded: text) else { return nil }
        // Reject non-canonical encodings (stray bits in the last symbol).
        guard data.base64EncodedString() == text else { return nil }
        return [UInt8](data)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
