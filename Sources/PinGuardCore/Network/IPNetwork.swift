/// An IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`, or one address).
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    /// The network's address bytes (4 or 16), host bits cleared.
    public let bytes: [UInt8]
    /// Prefix length in bits.
    public let prefix: Int

    /// Parses `ADDRESS[/PREFIX]`; nil when it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPNetwork.addressBytes(String(parts[0])) else { return nil }
        let bits = address.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let p = Int(parts[1]), (0...bits).contains(p), parts[1].allSatisfy(\.isNumber) else { return nil }
            prefix = p
        }
        self.prefix = prefix
        self.bytes = IPNetwork.mask(address, prefix)
    }

    /// Whether `address` (4 or 16 bytes) lies in this network.
    public func contains(_ address: [UInt8]) -> Bool {
        address.count == bytes.count && IPNetwork.mask(address, prefix) == bytes
    }

    /// Whether every address of `other` lies in this network.
    public func contains(network other: IPNetwork) -> Bool {
        other.bytes.count == bytes.count && other.prefix >= prefix && contains(other.bytes)
    }

    /// `address/prefix`.
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") + "/\(prefix)" }
        var groups: [String] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16)) }
        return groups.joined(separator: ":") + "/\(prefix)"
    }

    static func mask(_ address: [UInt8], _ prefix: Int) -> [UInt8] {
        address.enumerated().map { i, b in
            let keep = max(0, min(8, prefix - i * 8))
            return keep == 8 ? b : b & UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
    }

    /// The bytes of an IPv4 (dotted quad) or IPv6 address literal.
    public static func addressBytes(_ text: String) -> [UInt8]? {
        if !text.contains(":") {
            let octets = text.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4 else { return nil }
            var out: [UInt8] = []
            for o in octets {
                guard !o.isEmpty, o.count <= 3, o.allSatisfy(\.isNumber), let v = UInt8(o) else { return nil }
                out.append(v)
            }
            return out
        }
        guard IPv6Literal.isValid(text) else { return nil }
        let halves = text.components(separatedBy: "::")
        func groups(_ s: String) -> [UInt8]? {
            guard !s.isEmpty else { return [] }
            var out: [UInt8] = []
            for g in s.split(separator: ":", omittingEmptySubsequences: false) {
                if g.contains(".") {
                    guard let v4 = addressBytes(String(g)) else { return nil }
                    out += v4
                } else {
                    guard let v = UInt16(g, radix: 16) else { return nil }
                    out += [UInt8(v >> 8), UInt8(v & 0xFF)]
                }
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 16 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
