/// Recognises IPv6 address literals (RFC 4291 text forms, with an optional embedded IPv4 tail).
public enum IPv6Literal {
    /// Whether `text` is an IPv6 address such as `::1`, `fe80::1` or `::ffff:192.0.2.1`.
    public static func isValid(_ text: String) -> Bool {
        let doubles = text.components(separatedBy: "::")
        guard doubles.count <= 2 else { return false }
        var groups: [Substring] = []
        for part in doubles where !part.isEmpty {
            groups += part.split(separator: ":", omittingEmptySubsequences: false)
        }
        var count = 0
        for (i, g) in groups.enumerated() {
            if i == groups.count - 1 && g.contains(".") {
                let octets = g.split(separator: ".", omittingEmptySubsequences: false)
                guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else { return false }
                count += 2
                continue
            }
            guard (1...4).contains(g.count), g.allSatisfy(\.isHexDigit) else { return false }
            count += 1
        }
        return doubles.count == 2 ? count <= 7 : count == 8
    }
}
