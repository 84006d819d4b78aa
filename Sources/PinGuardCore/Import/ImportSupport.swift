import Foundation

/// Small parsing helpers shared by the importers.
enum ImportSupport {
    /// The deepest nesting of elements, arrays or dictionaries an importer accepts. Real configurations are a
    /// handful of levels deep; the cap keeps recursive walks (and the libraries' own) far from the stack's end.
    static let maxNestingDepth = 128

    /// The error for a document nested deeper than `maxNestingDepth`.
    static func tooDeep(file: String, line: Int?) -> ImportError {
        ImportError(file: file, line: line, message: "nested deeper than \(maxNestingDepth) levels; refused")
    }

    /// Offset of the first byte that does not belong to a valid UTF-8 sequence (overlong forms, surrogates and
    /// code points above U+10FFFF are invalid), or nil when all of `bytes` is UTF-8.
    static func firstInvalidUTF8<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// `yyyy-MM-dd` as 00:00 UTC of that day: TrustKit and Android stop enforcing pins when that day begins
    /// (they read the date in the device's time zone; UTC is the importer's stand-in). Nil if not such a date.
    static func startOfDay(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let digits = t.unicodeScalars.enumerated().allSatisfy { i, u in
            (i == 4 || i == 7) ? u == "-" : ("0"..."9").contains(u)
        }
        guard t.count == 10, digits, let end = PinSetExpiry.parse(t) else { return nil }
        return end.addingTimeInterval(-86_400)
    }

    /// Canonical base64 of a 32-byte digest written in strict standard base64, else nil.
    static func strictSHA256(_ text: String) -> String? {
        guard let bytes = Base64.decode(text), bytes.count == 32 else { return nil }
        return Base64.encode(bytes)
    }

    /// Decodes base64 leniently (either alphabet, padding optional, whitespace ignored), as Okio does.
    static func lenientBase64(_ text: String) -> [UInt8]? {
        var s = String(text.filter { !$0.isWhitespace }
            .map { $0 == "-" ? "+" : ($0 == "_" ? "/" : $0) })
        while s.hasSuffix("=") { s.removeLast() }
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }),
              s.count % 4 != 1 else { return nil }
        s += String(repeating: "=", count: (4 - s.count % 4) % 4)
        return Data(base64Encoded: s).map { [UInt8]($0) }
    }

    /// Appends a dictionary key to a key path: `a.b` for identifiers, `a["x.y"]` otherwise.
    static func keyPath(_ base: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        if plain { return base.isEmpty ? key : "\(base).\(key)" }
        return "\(base)[\"\(key)\"]"
    }

    /// Appends an array index to a key path.
    static func keyPath(_ base: String, _ index: Int) -> String {
        "\(base)[\(index)]"
    }
}
