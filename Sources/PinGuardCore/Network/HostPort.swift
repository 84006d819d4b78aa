/// `HOST[:PORT]` as users write it (an IPv6 address in brackets: `[::1]:443`).
public enum HostPort {
    /// The host and port of `text`, or a message saying what is wrong with it.
    public static func parse(_ text: String, defaultPort: Int = 443) -> Result<(host: String, port: Int), HostPortError> {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(HostPortError("\(text): missing ] after an IPv6 address")) }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return .success((host, defaultPort)) }
            guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()), (1...65535).contains(p) else {
                return .failure(HostPortError("\(text): bad port"))
            }
            return .success((host, p))
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 1 { return text.isEmpty ? .failure(HostPortError("empty host")) : .success((text, defaultPort)) }
        guard parts.count == 2, let p = Int(parts[1]), (1...65535).contains(p), !parts[0].isEmpty else {
            return .failure(HostPortError("\(text): expected HOST[:PORT] (IPv6 as [::1]:443)"))
        }
        return .success((String(parts[0]), p))
    }
}

/// Why a `HOST[:PORT]` does not parse.
public struct HostPortError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public let description: String
    init(_ message: String) { description = message }
}
