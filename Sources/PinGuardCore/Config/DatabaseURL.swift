/// The URL of the shared state database (`state.url`), as messages show it.
public enum DatabaseURL {
    /// `url` without its password (`user:secret@` becomes `user@`; a `password=` setting is dropped), at most
    /// 300 characters.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
           let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
            text.removeSubrange(colon..<at)
        }
        let parts = text.split(separator: "?", maxSplits: 1)
        guard parts.count == 2 else { return String(text.prefix(300)) }
        let kept = parts[1].split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
        return String((kept.isEmpty ? String(parts[0]) : parts[0] + "?" + kept.joined(separator: "&")).prefix(300))
    }
}
