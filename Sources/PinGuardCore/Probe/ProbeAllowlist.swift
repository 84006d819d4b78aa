/// Which targets `GET /probe` may probe (`probe_allow` in the configuration): host patterns the name must
/// match, ports, and networks every resolved address must lie in (docs/reference.md, HTTP endpoint).
///
/// Loopback, link-local, cloud metadata addresses, unspecified, multicast and IPv4-mapped addresses are
/// refused even inside a broad network such as `0.0.0.0/0`; they are allowed only by a listed network that
/// lies entirely inside such a range (`127.0.0.0/8`, `169.254.169.254/32`). An IPv6 address that carries an
/// IPv4 address (IPv4-compatible `::a.b.c.d`, IPv4-mapped, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is
/// permitted only when the IPv4 address it carries is permitted too.
public struct ProbeAllowlist: Sendable, Equatable {
    /// Patterns of the names that may be probed (`**.example.com`).
    public var hosts: [HostPattern]
    /// Networks the resolved addresses must lie in.
    public var networks: [IPNetwork]
    /// Ports that may be dialled (each range inclusive).
    public var ports: [ClosedRange<Int>]

    /// Ranges a broad network never opens: loopback, link-local and metadata, unspecified, multicast.
    public static let guarded: [IPNetwork] = [
        "0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "100.100.100.200/32", "168.63.129.16/32", "224.0.0.0/4",
        "255.255.255.255/32", "::/128", "::1/128", "fe80::/10", "ff00::/8", "fd00:ec2::254/128", "::ffff:0:0/96",
    ].compactMap(IPNetwork.init)

    /// The default networks: every address (the guarded ranges excepted).
    public static let everyAddress: [IPNetwork] = ["0.0.0.0/0", "::/0"].compactMap(IPNetwork.init)

    /// The default ports: HTTPS only.
    public static let httpsOnly: [ClosedRange<Int>] = [443...443]

    /// Creates an allowlist.
    public init(hosts: [HostPattern], networks: [IPNetwork] = ProbeAllowlist.everyAddress,
                ports: [ClosedRange<Int>] = ProbeAllowlist.httpsOnly) {
        self.hosts = hosts
        self.networks = networks
        self.ports = ports
    }

    /// Whether a target named `host` may be probed.
    public func permits(host: String) -> Bool {
        let h = HostPattern.normalize(host)
        return hosts.contains { $0.matches(h) }
    }

    /// Whether `port` may be dialled.
    public func permits(port: Int) -> Bool {
        ports.contains { $0.contains(port) }
    }

    /// Whether `address` (4 or 16 bytes) may be dialled: inside a listed network, and when it lies in a
    /// guarded range, inside a listed network that itself lies in a guarded range; an IPv4 address carried
    /// in an IPv6 one must be permitted as well.
    public func permits(address: [UInt8]) -> Bool {
        guard permitsItself(address) else { return false }
        guard let carried = Self.carriedIPv4(address) else { return true }
        return permitsItself(carried)
    }

    private func permitsItself(_ address: [UInt8]) -> Bool {
        let listed = networks.filter { $0.contains(address) }
        guard !listed.isEmpty else { return false }
        guard Self.guarded.contains(where: { $0.contains(address) }) else { return true }
        return listed.contains { n in Self.guarded.contains { $0.contains(network: n) } }
    }

    /// The IPv4 address an IPv6 address carries: IPv4-compatible (`::a.b.c.d`, not `::` or `::1`),
    /// IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:AABB:CCDD::/48`); nil otherwise.
    public static func carriedIPv4(_ address: [UInt8]) -> [UInt8]? {
        guard address.count == 16 else { return nil }
        let zeros = [UInt8](repeating: 0, count: 10)
        if Array(address[0..<12]) == zeros + [0, 0] {
            let v4 = Array(address[12..<16])
            return v4[0] == 0 && v4[1] == 0 && v4[2] == 0 && v4[3] <= 1 ? nil : v4
        }
        if Array(address[0..<12]) == zeros + [0xFF, 0xFF] { return Array(address[12..<16]) }
        if Array(address[0..<12]) == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return Array(address[12..<16]) }
        if address[0] == 0x20 && address[1] == 0x02 { return Array(address[2..<6]) }
        return nil
    }
}
