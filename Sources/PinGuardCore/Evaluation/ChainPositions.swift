/// Which position of a chain is its trust anchor.
public enum ChainPositions {
    /// The depth of the trust anchor: the last certificate when it came from the store or is self-issued,
    /// and the chain has more than the leaf. Nil when the chain ends below its anchor (served chain without root).
    public static func anchorDepth(of chain: [ChainCertificate]) -> Int? {
        guard chain.count > 1 else { return nil }
        let last = chain.count - 1  // read in place: many evaluations ask, and a copy would retain the facts
        return (chain[last].source == .store || chain[last].selfIssued) ? chain[last].depth : nil
    }
}
