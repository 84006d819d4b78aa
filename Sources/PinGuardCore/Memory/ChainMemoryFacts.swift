/// What the memory of served chains reports on /metrics: whether its file is written, and per target the
/// renewals observed and since when each address has served its current leaf key.
public struct ChainMemoryFacts: Sendable {
    /// Changes whenever anything below does (so a rendered copy can be kept until then).
    public var version: UInt64 = 0
    /// Whether the state file is written (false in memory only, or while the file cannot be written).
    public var writable = false
    /// One entry per remembered target with something to report (`isReported`), in name order.
    public var targets: [TargetMemoryFacts] = []

    /// No memory yet.
    public init() {}
}

/// One target's renewals and key ages.
public struct TargetMemoryFacts: Sendable, Equatable {
    /// The target's name.
    public var target: String
    /// Renewals observed, and the last one.
    public var renewals: RenewalSummary
    /// Per address of the latest probe, when its current leaf key was first seen there (Unix seconds).
    public var keyFirstSeen: [AddressKeyAge]

    /// Whether /metrics has anything to say of the target: a renewal observed, or a key kept across one.
    public var isReported: Bool { renewals.renewals > 0 || renewals.lastRenewal != nil || !keyFirstSeen.isEmpty }

    /// Creates the facts of one target.
    public init(target: String, renewals: RenewalSummary, keyFirstSeen: [AddressKeyAge]) {
        self.target = target
        self.renewals = renewals
        self.keyFirstSeen = keyFirstSeen
    }
}

/// Since when one address has served its current leaf key.
public struct AddressKeyAge: Sendable, Equatable {
    /// The address (`ip:port`).
    public var address: String
    /// When the key was first seen there, Unix seconds.
    public var since: Int64

    /// Creates an entry.
    public init(address: String, since: Int64) {
        self.address = address
        self.since = since
    }
}
