/// A host pattern of a policy: exact host, `*.` (exactly one extra label) or `**.` (the domain and any depth).
public enum HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this host (lowercased, no trailing dot).
    case exact(String)
    /// Any host with exactly one more label in front of this domain.
    case oneLabel(String)
    /// This domain itself and any depth below it.
    case anyDepth(String)

    /// Why a pattern text is not a valid pattern.
    public struct Invalid: Error, Sendable, Equatable {
        /// Human-readable cause.
        public var message: String
    }

    /// Parses a pattern; rejects empty labels, wildcards anywhere but the first label, and bare wildcards.
    public static func parse(_ text: String) throws(Invalid) -> HostPattern {
        let lowered = HostPattern.normalize(text)
        guard !lowered.isEmpty else { throw Invalid(message: "empty pattern") }
        var kind = 0
        var domain = Substring(lowered)
        if lowered.hasPrefix("**.") { kind = 2; domain = domain.dropFirst(3) }
        else if lowered.hasPrefix("*.") { kind = 1; domain = domain.dropFirst(2) }
        guard !domain.isEmpty else {
            throw Invalid(message: "pattern \(EchoedInput.quoted(text)) has no domain after the wildcard")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if label.isEmpty { throw Invalid(message: "pattern \(EchoedInput.quoted(text)) has an empty label") }
            if label.contains("*") {
                throw Invalid(message: "pattern \(EchoedInput.quoted(text)): a wildcard may only be the whole first label, as \"*.\" or \"**.\"")
            }
            let ok = label.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_"
            }
            if !ok { throw Invalid(message: "pattern \(EchoedInput.quoted(text)) has an invalid character in label \(EchoedInput.quoted(label))") }
        }
        switch kind {
        case 1: return .oneLabel(String(domain))
        case 2: return .anyDepth(String(domain))
        default: return .exact(String(domain))
        }
    }

    /// Lowercases and drops one trailing dot, as hosts are compared.
    public static func normalize(_ host: String) -> String {
        // A host as configured is almost always lowercase ASCII already: kept as it is, without a new string.
        let plain = host.utf8.withContiguousStorageIfAvailable { b in
            b.last != 0x2E && !b.contains { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) }
        }
        if plain == true { return host }
        var h = host.lowercased()
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }

    /// The domain part without the wildcard.
    public var domain: String {
        switch self {
        case .exact(let d), .oneLabel(let d), .anyDepth(let d): return d
        }
    }

    /// Whether `host` (already normalized) matches.
    public func matches(_ host: String) -> Bool {
        switch self {
        case .exact(let d):
            return host == d
        case .oneLabel(let d):
            guard let label = Self.labelsBefore(d, in: host) else { return false }
            return label > 0 && !host.utf8.prefix(label).contains(0x2E)
        case .anyDepth(let d):
            return host == d || Self.labelsBefore(d, in: host) != nil
        }
    }

    /// When `host` ends with `"." + domain`, the length in bytes of what comes before that dot; compared byte
    /// by byte (hosts and patterns are normalized), without making the dotted text.
    static func labelsBefore(_ domain: String, in host: String) -> Int? {
        func compare(_ h: UnsafeBufferPointer<UInt8>, _ d: UnsafeBufferPointer<UInt8>) -> Int? {
            let dot = h.count - d.count - 1
            guard dot >= 0, h[dot] == 0x2E, UnsafeBufferPointer(rebasing: h[(dot + 1)...]).elementsEqual(d) else { return nil }
            return dot
        }
        // Native strings lend their bytes in place (the outer optionals say whether they could).
        let fast = host.utf8.withContiguousStorageIfAvailable { h in
            domain.utf8.withContiguousStorageIfAvailable { d in compare(h, d) }
        }
        if case .some(.some(let dot)) = fast { return dot }
        return Array(host.utf8).withUnsafeBufferPointer { h in Array(domain.utf8).withUnsafeBufferPointer { d in compare(h, d) } }
    }

    /// The pattern as written in a policy file.
    public var description: String {
        switch self {
        case .exact(let d): return d
        case .oneLabel(let d): return "*." + d
        case .anyDepth(let d): return "**." + d
        }
    }
}
