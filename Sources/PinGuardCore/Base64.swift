import Foundation

/// Strict standard base64 (RFC 4648 §4, padded), without Foundation's leniency.
public enum Base64 {
    /// Encodes bytes as padded standard base64.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }

    /// Decodes padded standard base64; nil for anything else (whitespace, URL alphabet, bad padding).
    public static func decode(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.count % 4 == 0 else { return nil }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
        guard text.allSatisfy({ allowed.contains($0) }) else { return nil }
        guard let data = Data(base64Encoded: text) else { return nil }
        // Reject non-canonical encodings (stray bits in the last symbol).
        guard data.base64EncodedString() == text else { return nil }
        return [UInt8](data)
    }
}
