/// What a newly observed chain means for its target, judged against the chains recorded before.
public enum RenewalClassification: Hashable, Sendable {
    /// Nothing was recorded for this target at this address.
    case firstSight
    /// The address still serves the same leaf as its latest chain (a restart seeing it again included;
    /// a different issuing certificate for the same leaf is recorded as a new chain but is not a renewal).
    case unchanged
    /// The target renewed: the address serves a leaf no address of the target served before, with a
    /// notBefore no earlier than the address's previous leaf. `keyReused`: the leaf key (SPKI) is the
    /// previous leaf's. `issuerChanged`: the issuing certificate's key (SPKI) differs from the previous
    /// one's; a re-issued intermediate with the same key is not a change, as pins on that key still hold.
    case renewal(keyReused: Bool, issuerChanged: Bool, previous: ServedChain)
    /// The address now serves a leaf the target already served (at another address, or here before a
    /// rollback), no older than its previous leaf: recorded for the address, not a new renewal.
    case addressCaughtUp
    /// The address went back to a leaf with an earlier notBefore than the one it served last (`previous`).
    case rollback(to: ServedChain, previous: ServedChain)

    /// How a chain first recorded with this classification arrived at its address.
    public var arrival: ChainArrival {
        switch self {
        case .firstSight: .firstSight
        case .unchanged: .sameLeaf
        case .renewal(let keyReused, let issuerChanged, _): .renewal(keyReused: keyReused, issuerChanged: issuerChanged)
        case .addressCaughtUp: .addressCaughtUp
        case .rollback: .rollback
        }
    }
}
