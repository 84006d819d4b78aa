/// How pinguard downloads what the authorities publish (`fetch:` in the configuration): which networks a
/// resolved address may lie in, which CA bundle verifies HTTPS, and how long one fetch may take.
///
/// By default every public unicast address is allowed and the guarded ranges of `/probe` are refused
/// (loopback, private, link-local, metadata, multicast); a listed network that lies inside a guarded range
/// opens it, as `probe_allow.networks` does.
public struct FetchSettings: Sendable, Equatable {
    /// Networks a resolved address must lie in (`fetch.networks`).
    public var networks: [IPNetwork]
    /// A CA bundle replacing the system store for HTTPS (`fetch.ca_file`), resolved against the config's folder.
    public var caFile: String?
    /// Seconds one fetch may take, connection and body included (`fetch.timeout`).
    public var timeout: Double

    /// The default: public unicast addresses, the system store, 30 seconds.
    public init(networks: [IPNetwork] = FetchSettings.publicUnicast, caFile: String? = nil, timeout: Double = 30) {
        self.networks = networks
        self.caFile = caFile
        self.timeout = timeout
    }

    /// Private ranges that a default fetch never reaches, beside `ProbeAllowlist.guarded`.
    public static let privateRanges: [IPNetwork] = [
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7",
    ].compactMap(IPNetwork.init)

    /// The default networks: every address; the guarded and private ranges are refused by `permits`.
    public static let publicUnicast: [IPNetwork] = ProbeAllowlist.everyAddress

    /// Whether `address` (4 or 16 bytes) may be connected to: the rules of `ProbeAllowlist`, and a private
    /// address only when a listed network lies inside a private or guarded range.
    public func permits(address: [UInt8]) -> Bool {
        guard ProbeAllowlist(hosts: [], networks: networks).permits(address: address) else { return false }
        let carried = ProbeAllowlist.carriedIPv4(address)
        for candidate in [address] + (carried.map { [$0] } ?? []) where Self.privateRanges.contains(where: { $0.contains(candidate) }) {
            let listed = networks.filter { $0.contains(candidate) }
            guard listed.contains(where: { n in Self.privateRanges.contains { $0.contains(network: n) } }) else { return false }
        }
        return true
    }
}
