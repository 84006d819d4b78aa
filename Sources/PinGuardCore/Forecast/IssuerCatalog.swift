import Foundation

/// A dated catalog of public issuer pools: for each CA, the intermediates it issues from (or did), each with
/// its path to a root (docs/reference.md, Forecast). Bundled with pinguard; `issuer_catalog: FILE` replaces it.
public struct IssuerCatalog: Sendable, Equatable {
    /// One CA's pool of issuing intermediates.
    public struct Pool: Sendable, Equatable {
        /// The pool's name (`letsencrypt-rsa`).
        public var name: String
        /// Who runs it (`Let's Encrypt`).
        public var operatorName: String
        /// The pool's intermediates.
        public var issuers: [Issuer]
        /// The operator's ACME directory, whose renewal information gives a leaf's renewal window; nil when
        /// the operator serves none.
        public var acmeDirectory: String?

        /// Creates a pool.
        public init(name: String, operatorName: String, issuers: [Issuer]) {
            self.name = name
            self.operatorName = operatorName
            self.issuers = issuers
        }

        /// The intermediates the CA still issues from (those not known to be retired).
        public var active: [Issuer] { issuers.filter { $0.active != false } }
    }

    /// One intermediate of a pool.
    public struct Issuer: Sendable, Equatable {
        /// Its short name (`R11`).
        public var name: String
        /// The intermediate first, then up to its root.
        public var chain: [ChainCertificate]
        /// Whether the CA still issues from it; nil when not known.
        public var active: Bool?
        /// The key family of the leaves it signs: `RSA` or `EC`.
        public var keyFamily: String

        /// Creates an issuer.
        public init(name: String, chain: [ChainCertificate], active: Bool?, keyFamily: String) {
            self.name = name
            self.chain = chain
            self.active = active
            self.keyFamily = keyFamily
        }

        /// The intermediate's SPKI SHA-256 (base64).
        public var spkiSHA256: String { chain.first?.spkiSHA256 ?? "" }
    }

    /// The date the catalog was made (`YYYY-MM-DD`).
    public var generated: String
    /// Its pools.
    public var pools: [Pool] { didSet { holders = Self.holders(of: pools) } }
    /// The certificate files the catalog names (`"pem"`, relative to its folder) that a next issuer's path is built
    /// from: its issuers not marked retired and its roots' valid cross-signs (`IssuerCatalogReader`).
    public var certificateFiles: [String] = []
    /// For each intermediate's SPKI SHA-256, the first pool holding it and its place there.
    private var holders: [String: (pool: Int, issuer: Int)]

    /// Creates a catalog.
    public init(generated: String, pools: [Pool]) {
        self.generated = generated
        self.pools = pools
        holders = Self.holders(of: pools)
    }

    /// Two catalogs are equal when their dates and pools are.
    public static func == (a: IssuerCatalog, b: IssuerCatalog) -> Bool { a.generated == b.generated && a.pools == b.pools }

    private static func holders(of pools: [Pool]) -> [String: (pool: Int, issuer: Int)] {
        var found: [String: (pool: Int, issuer: Int)] = [:]
        for (p, pool) in pools.enumerated() {
            for (i, issuer) in pool.issuers.enumerated() where found[issuer.spkiSHA256] == nil { found[issuer.spkiSHA256] = (p, i) }
        }
        return found
    }

    /// An empty catalog.
    public static let empty = IssuerCatalog(generated: "", pools: [])

    /// The pool holding an intermediate with this SPKI, and that intermediate.
    public func pool(holding spki: String) -> (pool: Pool, issuer: Issuer)? {
        guard let at = holders[spki] else { return nil }
        return (pools[at.pool], pools[at.pool].issuers[at.issuer])
    }

    /// The ACME directory of the pool holding the intermediate `spki`; nil when none is known.
    public func acmeDirectory(issuer spki: String) -> String? { pool(holding: spki)?.pool.acmeDirectory }

    /// The intermediates a renewal of a leaf signed by the intermediate `spki` may come from: the active ones
    /// of its pool; when the CA no longer issues from that pool (it moved on, as Let's Encrypt from R10-R14
    /// to YR1-YR2), the active ones of the same operator for the leaf's key family (`RSA`, `EC`).
    public func nextIssuers(after spki: String, leafKeyType: String) -> [Issuer]? {
        guard let held = pool(holding: spki) else { return nil }
        if !held.pool.active.isEmpty { return held.pool.active }
        let family = Self.keyFamily(leafKeyType)
        let same = pools.filter { $0.operatorName == held.pool.operatorName }.flatMap(\.active)
        let matching = same.filter { $0.keyFamily == family }
        return matching.isEmpty ? (same.isEmpty ? nil : same) : matching
    }

    /// `RSA` or `EC` from a key description (`RSA-2048`, `EC-256`, `ECDSA P-384`).
    public static func keyFamily(_ key: String) -> String { key.uppercased().hasPrefix("RSA") ? "RSA" : "EC" }
}
