import PinGuardCore

/// Everything the store holds about one target, in memory: its renewal summary and its recorded chains,
/// with what of each is already on disk.
struct TargetRecord {
    /// Row bookkeeping for one recorded chain, kept beside it in `rows`.
    struct ChainRow {
        /// The chain's row id in the file (assigned in memory, so a chain can be pruned before it is written).
        let id: Int64
        /// Whether the row is in the file.
        var persisted: Bool
        /// The `last_seen` the file holds.
        var lastSeenWritten: Int64
        /// Whether the next commit writes `last_seen`.
        var touchDue = false
    }

    /// A chain dropped beyond `chainsPerAddress`: its row id (the file) and its identity (the database).
    struct DroppedChain {
        let id: Int64
        let address: String
        let identity: ChainIdentity
    }

    /// How many chains are kept per address; older ones (least recently seen) are dropped beyond it.
    static let chainsPerAddress = 16

    /// The target's row id.
    let id: Int64
    /// The target's name.
    let name: String
    /// Renewals observed.
    var summary = RenewalSummary()
    /// When the target was last known to be configured, Unix seconds (for retention).
    var lastConfigured: Int64
    /// Whether the target's row must be written (new, renewed or configured time refreshed).
    var needsWrite: Bool
    /// Whether the store lists the target among those to write (cleared by `markWritten`).
    var isDirty = false
    /// Recorded chains, all addresses, in the order first seen.
    private(set) var chains: [StoredChain] = []
    /// Bookkeeping for `chains`, index for index.
    private(set) var rows: [ChainRow] = []

    init(id: Int64, name: String, lastConfigured: Int64, needsWrite: Bool) {
        self.id = id
        self.name = name
        self.lastConfigured = lastConfigured
        self.needsWrite = needsWrite
    }

    /// Adds a chain (as loaded from the file, or newly observed) in first-seen order.
    mutating func append(_ chain: StoredChain, row: ChainRow) {
        chains.append(chain)
        rows.append(row)
    }

    /// Classifies `chain` seen at `address` at `now` against this target's chains and records it: a new
    /// chain (capping the address's chains; the dropped row ids are returned), a renewal, or the time a
    /// known chain was seen again. `changed`: whether the next commit has something to write for it.
    mutating func observe(_ chain: ServedChain, at address: String, now: Int64, granularity: Int64,
                          nextChainID: inout Int64) -> (RenewalClassification, changed: Bool, dropped: [DroppedChain]) {
        let classification = RenewalClassifier.classify(chain, at: address, known: chains)
        var changed = false
        var dropped: [DroppedChain] = []
        if let index = chains.firstIndex(where: { $0.isSame(chain, at: address) }) {
            let wasLatest = index == RenewalClassifier.latestIndex(at: address, in: chains)
            chains[index].lastSeen = max(chains[index].lastSeen, now)
            // Switching back to a known chain is written at once, so the file agrees on which is the latest.
            if !wasLatest || chains[index].lastSeen - rows[index].lastSeenWritten >= granularity {
                rows[index].touchDue = true
                changed = true
            }
        } else {
            let stored = StoredChain(address: address, chain: chain, firstSeen: now, lastSeen: now,
                                     keyFirstSeen: keyFirstSeen(chain.leafSPKISHA256, at: address) ?? max(0, min(now, chain.notBefore)),
                                     arrival: classification.arrival)
            append(stored, row: ChainRow(id: nextChainID, persisted: false, lastSeenWritten: now))
            nextChainID += 1
            dropped = capChains(at: address)
            changed = true
        }
        if case .renewal(let keyReused, let issuerChanged, _) = classification {
            summary = RenewalSummary(renewals: summary.renewals + 1, lastRenewal: now, lastKeyReused: keyReused,
                                     lastIssuerChanged: issuerChanged)
            needsWrite = true
        }
        return (classification, changed || needsWrite, dropped)
    }

    /// When the key `spki` was first seen at `address`, from the chains recorded there; nil if never.
    func keyFirstSeen(_ spki: ChainDigest, at address: String) -> Int64? {
        chains.lazy.filter { $0.address == address && $0.chain.leafSPKISHA256 == spki }.map(\.keyFirstSeen).min()
    }

    /// Drops the least recently seen chains of `address` beyond `chainsPerAddress`; returns what they were.
    mutating func capChains(at address: String) -> [DroppedChain] {
        var dropped: [DroppedChain] = []
        while chains.lazy.filter({ $0.address == address }).count > Self.chainsPerAddress {
            guard let oldest = chains.indices.filter({ chains[$0].address == address })
                .min(by: { chains[$0].lastSeen < chains[$1].lastSeen }) else { break }
            dropped.append(DroppedChain(id: rows[oldest].id, address: address, identity: chains[oldest].chain.identity))
            chains.remove(at: oldest)
            rows.remove(at: oldest)
        }
        return dropped
    }

    /// Marks everything pending as written: called after a successful commit.
    mutating func markWritten() {
        needsWrite = false
        isDirty = false
        for index in rows.indices where !rows[index].persisted || rows[index].touchDue {
            rows[index].persisted = true
            rows[index].touchDue = false
            rows[index].lastSeenWritten = chains[index].lastSeen
        }
    }
}
