/// Which targets `GET /probe` may probe (`probe_allow` in the configuration): host patterns the name must
/// match, and networks every resolved address must lie in (docs/reference.md, HTTP endpoint).
///
/// Loopback, link-local (including the cloud metadata address 169.254.169.254), unspecified, multicast and
/// the IPv6 metadata address are refused even inside a broad network such as `0.0.0.0/0`; they are allowed
/// only by a listed network that lies entirely inside such a range (`127.0.0.0/8`, `169.254.169.254/32`).
public struct ProbeAllowlist: Sendable, Equatable {
    /// Patterns of the names that may be probed (`**.example.com`).
    public var hosts: [HostPattern]
    /// Networks the resolved addresses must lie in.
    public var networks: [IPNetwork]

    /// Ranges a broad network never opens: loopback, link-local and metadata, unspecified, multicast.
    public static let guarded: [IPNetwork] = [
        "0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "100.100.100.200/32", "224.0.0.0/4", "255.255.255.255/32",
        "::/128", "::1/128", "fe80::/10", "ff00::/8", "fd00:ec2::254/128", "::ffff:0:0/96",
    ].compactMap(IPNetwork.init)

    /// The default networks: every address (the guarded ranges excepted).
    public static let everyAddress: [IPNetwork] = ["0.0.0.0/0", "::/0"].compactMap(IPNetwork.init)

    /// Creates an allowlist.
    public init(hosts: [HostPattern], networks: [IPNetwork] = ProbeAllowlist.everyAddress) {
        self.hosts = hosts
        self.networks = networks
    }

    /// Whether a target named `host` may be probed.
    public func permits(host: String) -> Bool {
        let h = HostPattern.normalize(host)
        return hosts.contains { $0.matches(h) }
    }

    /// Whether `address` (4 or 16 bytes) may be dialled: inside a listed network, and when it lies in a
    /// guarded range, inside a listed network that itself lies in a guarded range.
    public func permits(address: [UInt8]) -> Bool {
        let listed = networks.filter { $0.contains(address) }
        guard !listed.isEmpty else { return false }
        guard Self.guarded.contains(where: { $0.contains(address) }) else { return true }
        return listed.contains { n in Self.guarded.contains { $0.contains(network: n) } }
    }
}
