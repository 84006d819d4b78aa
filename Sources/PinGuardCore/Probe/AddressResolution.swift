/// What resolving a target's name (or its `connect` list) gave: the addresses, how many were probed, or
/// why resolution failed.
public struct AddressResolution: Sendable, Equatable {
    /// Every resolved address as `ip:port` (`[ip]:port` for IPv6), deduplicated, in a stable order
    /// (IPv4 before IPv6, then by address), including those beyond `max_addresses`.
    public var addresses: [String]
    /// Addresses left unprobed because the name has more than `max_addresses`.
    public var skipped: Int
    /// Why no address was found; nil when resolution succeeded.
    public var error: String?
    /// The resolved address an allowlist (`probe_allow`) refused; nothing was dialled.
    public var refusedAddress: String?

    /// Creates a resolution outcome.
    public init(addresses: [String] = [], skipped: Int = 0, error: String? = nil) {
        self.addresses = addresses
        self.skipped = skipped
        self.error = error
    }
}
