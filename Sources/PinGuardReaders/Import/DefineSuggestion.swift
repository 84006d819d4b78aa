import Foundation
import PinGuardCore

/// The one line that tells the user which `--define` flags an import of source code needs: the names the file uses
/// but does not define (`BuildConfig.API_URL`, `Constants.PIN_1`, obfuscated `C0581a.f1234b`), each with `=VALUE`.
public enum DefineSuggestion {
    /// Names shown before the rest are counted instead, so a hostile file cannot make the line unbounded.
    public static let maxNames = 50

    /// `supply with: --define NAME=VALUE …` for `names` (escaped; single-quoted when the shell would read
    /// more than a name in them), or nil when there are none.
    public static func line(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let flags = names.prefix(maxNames).map { "--define \(shellWord(EchoedInput.bare($0, limit: 200) + "=VALUE"))" }
        let more = names.count > maxNames ? " (and \(names.count - maxNames) more: see the warnings)" : ""
        return "supply with: " + flags.joined(separator: " ") + more
    }

    /// `word` as is when it holds only letters, digits, `_`, `.`, `=` and `-`; else in single quotes
    /// (Java's `Outer$Inner` would otherwise be expanded by the shell).
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.=-".unicodeScalars.contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
