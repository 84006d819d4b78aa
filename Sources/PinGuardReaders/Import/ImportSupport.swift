import Foundation
import PinGuardCore

/// Small parsing helpers shared by the importers.
enum ImportSupport {
    /// The deepest nesting of elements, arrays or dictionaries an importer accepts. Real configurations are a
    /// handful of levels deep; the cap keeps recursive walks (and the libraries' own) far from the stack's end.
    static let maxNestingDepth = ImportLimits.maxNestingDepth

    /// The most values (elements, array items, dictionary keys and values) a structured document may hold,
    /// counting a shared binary-plist object at every reference. Real pin configurations hold a few hundred.
    static let maxNodes = ImportLimits.maxNodes

    /// The largest file an importer reads. Shipped configurations and source files are far smaller; the cap keeps
    /// the tokens and trees built from hostile input within a small, predictable amount of memory.
    static let maxInputBytes = ImportLimits.maxInputBytes

    /// The error for a document holding more than `maxNodes` values.
    static func tooManyNodes(file: String, line: Int?) -> ImportError {
        ImportError(file: file, line: line, message: "more than \(maxNodes) values; refused", exceedsLimit: true)
    }

    /// The error for a document nested deeper than `maxNestingDepth`.
    static func tooDeep(file: String, line: Int?) -> ImportError {
        ImportError(file: file, line: line, message: "nested deeper than \(maxNestingDepth) levels; refused", exceedsLimit: true)
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

    /// RFC 7469 `delta-seconds` (ASCII digits only), saturating at `Int.max` as RFC 9111 §1.2.2 tells
    /// caches to do with values too large to hold; nil when `text` is not digits.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var n = 0
        for b in text.utf8 {
            let (times10, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(b - 0x30))
            if o1 || o2 { return Int.max }
            n = sum
        }
        return n
    }

    /// Whole seconds as days, hours, minutes and seconds (`30d12h`), in integer arithmetic so that any `Int`
    /// formats without a floating-point round trip (which traps near `Int.max`).
    static func formatSeconds(_ seconds: Int) -> String {
        guard seconds > 0 else { return "0s" }
        var s = seconds
        var out = ""
        for (unit, n) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where s >= n {
            out += "\(s / n)\(unit)"
            s %= n
        }
        return out
    }

    /// Canonical base64 of a 32-byte digest written in strict standard base64, else nil.
    static func strictSHA256(_ text: String) -> String? {
        guard let bytes = Base64.decode(text), bytes.count == 32 else { return nil }
        return Base64.encode(bytes)
    }

    /// Decodes base64 leniently (either alphabet, padding optional, whitespace ignored), as Okio does.
    static func lenientBase64(_ text: String) -> [UInt8]? {
        ClientBase64.decode(text, .lenient)
    }

    /// A pin hash read as Foundation reads it (TrustKit, ATS, and the importers' stand-in for browsers' HPKP):
    /// the canonical hash, recording an info finding when `text` is not written canonically; nil when refused.
    static func foundationSHA256(_ text: String, line: Int?, keyPath: String? = nil, draft: inout ImportDraft) -> String? {
        guard let (hash, canonical) = ClientBase64.sha256(text, .foundation) else { return nil }
        if !canonical {
            draft.note(.info, line: line, keyPath: keyPath,
                       "non-canonical base64 \"\(text)\" (unused low bits set) read as \(hash), as the client decodes it")
        }
        return hash
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
