/// Decides what a served chain means for its target's renewals; pure, with no I/O and no clock.
///
/// The rules, in order, for a chain observed at one address of a target:
/// 1. nothing recorded at the address: `.firstSight`;
/// 2. the same leaf as the address's latest chain: `.unchanged`;
/// 3. a leaf with an earlier notBefore than the latest's: `.rollback`;
/// 4. a leaf any address of the target served before: `.addressCaughtUp`;
/// 5. otherwise a new leaf, no older than the latest: `.renewal`. An equal notBefore counts as a renewal:
///    a different certificate issued in the same second still replaced the old one, and calling it a
///    rollback or ignoring it would hide a key change.
public enum RenewalClassifier {
    /// Classifies `observed`, served at `address`, against `known`: every chain recorded for the target
    /// (all addresses), oldest first.
    public static func classify(_ observed: ServedChain, at address: String,
                                known: [StoredChain]) -> RenewalClassification {
        guard let index = latestIndex(at: address, in: known) else { return .firstSight }
        let previous = known[index].chain
        if observed.leafSHA256 == previous.leafSHA256 { return .unchanged }
        if observed.notBefore < previous.notBefore { return .rollback(to: observed, previous: previous) }
        if known.contains(where: { $0.chain.leafSHA256 == observed.leafSHA256 }) { return .addressCaughtUp }
        return .renewal(keyReused: observed.leafSPKISHA256 == previous.leafSPKISHA256,
                        issuerChanged: observed.issuerSPKISHA256 != previous.issuerSPKISHA256,
                        previous: previous)
    }

    /// The position in `known` of the chain the address serves now: the one seen most recently there,
    /// the later-recorded one on a tie; nil when the address has no chain recorded.
    public static func latestIndex(at address: String, in known: [StoredChain]) -> Int? {
        var best: Int?
        for (index, stored) in known.enumerated() where stored.address == address {
            if let b = best, known[b].lastSeen > stored.lastSeen { continue }
            best = index
        }
        return best
    }
}
