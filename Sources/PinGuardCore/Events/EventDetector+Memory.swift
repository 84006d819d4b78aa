import Foundation

/// What the detector remembers between observations, per target, address and policy set.
extension EventDetector {
    /// What was last seen of one policy set's evaluation of an address, found by set and environment.
    struct SetMemory: Sendable {
        var policySet: String
        var environment: String
        var reason: DecisionReason
        var backupInUse: Bool
        var reserveMissing: Bool
        var breakageSoon: Bool
        var rawKeyPins: [String] = []
        var hazards: [String] = []

        /// Whether this is the memory of `policySet`/`environment`: the same key `set/environment` as
        /// journal messages spell it. Names without a "/" spell the same key only when both are equal;
        /// names with one (rare) are compared as the whole key, which two different pairs can share.
        func isFor(_ set: String, _ env: String) -> Bool {
            if policySet == set && environment == env { return true }
            func slash(_ s: String) -> Bool { s.utf8.contains(UInt8(ascii: "/")) }
            guard slash(policySet) || slash(environment) || slash(set) || slash(env) else { return false }
            return policySet + "/" + environment == set + "/" + env
        }
    }

    /// What was last seen of one address of a target.
    ///
    /// A 100,000-target service keeps one of these per address, so it holds little of its own: the served
    /// chain is the result's own array (shared, not a joined key string), and the sets are a small array
    /// searched in order (a target has a handful of sets, so no dictionary per address).
    struct NodeMemory: Sendable {
        var address: String
        var probeOK: Bool?
        /// The served chain last seen of a successful probe (its certificate hashes are the chain's key,
        /// its leaf SPKI the leaf key).
        var chain: [ChainCertificate]?
        var uncovered: Bool?
        var expirySoon: Bool?
        var clientAuth: String?
        var sets: [SetMemory] = []
        /// The certificates (`depth:cert_sha256`) a valid CRL listed as revoked in the last result.
        var revoked: [String] = []

        init(address: String) { self.address = address }

        /// The leaf SPKI of the last served chain, as reported: "" for an empty chain, nil before any.
        var leafSPKI: String? { chain.map { $0.first?.spkiSHA256 ?? "" } }

        /// The index in `sets` of the memory of `set`/`env`, nil when new. Evaluations come in the same
        /// order each time, so position `hint` is tried first.
        func set(_ set: String, _ env: String, hint: Int) -> Int? {
            if hint < sets.count && sets[hint].isFor(set, env) { return hint }
            return sets.firstIndex { $0.isFor(set, env) }
        }
    }

    /// What was last seen of one target: its addresses and each address's state.
    public struct TargetMemory: Sendable {
        /// Resolved addresses; empty after a failed resolution, nil before the first observation.
        var addresses: [String]?
        var overLimit: Bool?
        var divergence: String?
        /// One entry per address of the last result, in its order (an array: usually one address, at most
        /// `max_addresses`, searched in order).
        var nodes: [NodeMemory] = []

        /// Nothing seen yet.
        public init() {}

        /// The index in `nodes` of the memory of `address`, added when new. Addresses usually come in the
        /// same order each time, so position `hint` is tried first and a search (linear, over at most
        /// `max_addresses` entries) is the exception.
        mutating func node(_ address: String, hint: Int) -> Int {
            if hint < nodes.count && nodes[hint].address == address { return hint }
            if let i = nodes.firstIndex(where: { $0.address == address }) { return i }
            nodes.append(NodeMemory(address: address))
            return nodes.count - 1
        }
    }
}
