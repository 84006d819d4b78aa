import Foundation
import PinGuardCore

/// `--defines FILE` and `--define NAME=VALUE`: values of names a source file uses but does not define.
///
/// Bounded: at most `maxBytes` of file and `maxDefinitions` definitions in all; an error echoes the
/// offending line only quoted, escaped and cut short.
public enum DefinesFile {
    /// The largest `--defines` file.
    public static let maxBytes = 1 << 20
    /// Definitions from the file and the flags together.
    public static let maxDefinitions = 10_000

    /// The definitions of `text` (one `NAME=VALUE` per line; blank lines and lines starting with `#`
    /// skipped), named in errors as `file:LINE`.
    public static func parse(_ text: String, file: String) -> Result<[(name: String, value: String)], DefinesError> {
        var out: [(name: String, value: String)] = []
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard out.count < maxDefinitions else { return .failure(.tooMany(origin: "\(file):\(k + 1)")) }
            switch entry(String(line), origin: "\(file):\(k + 1)") {
            case .success(let e): out.append(e)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(out)
    }

    /// One `NAME=VALUE` (the name trimmed of spaces, the value as written).
    public static func entry(_ text: String, origin: String) -> Result<(name: String, value: String), DefinesError> {
        guard let eq = text.firstIndex(of: "=") else { return .failure(.malformed(origin: origin, text: text)) }
        let name = text[..<eq].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !name.isEmpty else { return .failure(.malformed(origin: origin, text: text)) }
        return .success((name, String(text[text.index(after: eq)...])))
    }
}

/// Why a definition is refused.
public enum DefinesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `NAME=VALUE`.
    case malformed(origin: String, text: String)
    /// More than `DefinesFile.maxDefinitions`.
    case tooMany(origin: String)

    /// One line: where, and what.
    public var description: String {
        switch self {
        case .malformed(let origin, let text): return "\(origin): expected NAME=VALUE, got \(EchoedInput.quoted(text, limit: 80))"
        case .tooMany(let origin): return "\(origin): more than \(DefinesFile.maxDefinitions) NAME=VALUE definitions"
        }
    }
}
