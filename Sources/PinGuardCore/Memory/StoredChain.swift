/// A chain as recorded for one address of a target: the served facts, when it was seen, and how it
/// arrived there.
public struct StoredChain: Hashable, Sendable {
    /// The address that served it (as the probe names it, e.g. `192.0.2.1:443`).
    public var address: String
    /// The served chain's facts.
    public var chain: ServedChain
    /// When this chain was first seen at this address, Unix seconds.
    public var firstSeen: Int64
    /// When this chain was last seen at this address, Unix seconds. In memory this is the latest
    /// observation; on disk it lags by up to the store's `lastSeenGranularity` while the chain is unchanged.
    public var lastSeen: Int64
    /// When the leaf's key (SPKI) was first seen at this address: this chain's `firstSeen`, or that of an
    /// earlier chain at the address with the same key, carried forward so it survives pruning.
    public var keyFirstSeen: Int64
    /// How the chain came to be served at this address: the classification when it was first seen.
    public var arrival: ChainArrival

    /// Creates a recorded chain.
    public init(address: String, chain: ServedChain, firstSeen: Int64, lastSeen: Int64, keyFirstSeen: Int64,
                arrival: ChainArrival) {
        self.address = address
        self.chain = chain
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.keyFirstSeen = keyFirstSeen
        self.arrival = arrival
    }

    /// Whether this record is the given chain at the given address.
    public func isSame(_ other: ServedChain, at address: String) -> Bool {
        self.address == address && chain.identity == other.identity
    }
}

/// How a recorded chain first came to be served at its address; a history reader derives the target's
/// renewals from the `.renewal` marks.
public enum ChainArrival: Hashable, Sendable {
    /// The first chain recorded for the address.
    case firstSight
    /// The target's renewal: a new leaf, with whether it kept the key and whether the issuer changed.
    case renewal(keyReused: Bool, issuerChanged: Bool)
    /// A leaf the target already served elsewhere (or here before) reached this address.
    case addressCaughtUp
    /// The address went back to an older leaf it had not been recorded serving.
    case rollback
    /// The same leaf as before, served with a different issuing certificate (e.g. a cross-signed one).
    case sameLeaf
}
