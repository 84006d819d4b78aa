/// Every host name pinguard is given — a configured `host:` or `connect:`, a `files[].host`, a target
/// file's entry, a `GET /probe` target — checked by this one rule, so that the name the policies and the
/// allowlist match is byte for byte the name that is resolved, dialled and sent as SNI (a NUL would cut it
/// short in C).
///
/// A host name is ASCII letters, digits, `-` and `_` in dot-separated labels of 1–63 bytes (no label starts
/// or ends with `-`), at most 253 bytes, with at most one trailing dot (dropped); internationalised names
/// must come IDNA-encoded (`xn--…`). A name whose last label looks numeric (`127.1`, `0x7f000001`) must be
/// a complete dotted-quad IPv4 address, since the resolver would read it as an address. An IPv6 address
/// comes without brackets here (`HostPort` removed them) and must be a plain literal (no zone).
public enum HostName {
    /// The normalised host (lowercased, one trailing dot dropped), or why it is refused.
    public static func validate(_ host: String) -> Result<String, HostNameError> {
        let bytes = Array(host.utf8)
        if let bad = bytes.first(where: { $0 < 0x21 || $0 >= 0x7F }) {
            return .failure(HostNameError(bad >= 0x80 ? "non-ASCII byte (give an IDNA name, xn--…)"
                                                             : "control byte or space 0x\(hex(bad))"))
        }
        if bytes.contains(UInt8(ascii: ":")) {
            return IPv6Literal.isValid(host) && IPNetwork.addressBytes(host) != nil
                ? .success(host.lowercased()) : .failure(HostNameError("not an IPv6 address"))
        }
        let name = HostPattern.normalize(host)
        guard !name.isEmpty, name.utf8.count <= 253 else { return .failure(HostNameError("empty or over 253 bytes")) }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if let problem = labelProblem(label) { return .failure(HostNameError(problem)) }
        }
        if let last = labels.last, looksNumeric(last), IPNetwork.addressBytes(name) == nil {
            return .failure(HostNameError("numeric but not a dotted-quad IPv4 address"))
        }
        return .success(name)
    }

    /// Why `label` is not a host name label, or nil.
    static func labelProblem(_ label: Substring) -> String? {
        guard !label.isEmpty else { return "empty label" }
        guard label.utf8.count <= 63 else { return "label over 63 bytes" }
        guard label.utf8.allSatisfy(isLabelByte) else { return "a label holds a byte other than a-z, 0-9, - and _" }
        guard label.first != "-", label.last != "-" else { return "a label starts or ends with -" }
        return nil
    }

    static func isLabelByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }

    /// A label the resolver's `inet_aton` may read as a number: a digit first, then hex digits or `x`.
    static func looksNumeric(_ label: Substring) -> Bool {
        guard let first = label.utf8.first, first >= 0x30 && first <= 0x39 else { return false }
        return label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x78 }
    }

    static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}

/// Why a host is not a host name or address literal.
public struct HostNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without echoing the input.
    public let description: String
    /// A refusal saying `message` (which must not echo the input).
    public init(_ message: String) { description = message }
}
