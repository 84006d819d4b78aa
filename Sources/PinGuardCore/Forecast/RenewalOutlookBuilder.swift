import Foundation

/// How a target expects to be renewed, as configured (`renewal:` per target or config-wide).
public struct RenewalSettings: Sendable, Equatable {
    /// Seconds before notAfter the renewal happens (`renewal.before`); nil: a third of the lifetime.
    public var before: Double?
    /// `renewal.key`: reuse or rotate; nil when not declared.
    public var key: RenewalOutlook.Key?
    /// `renewal.issuers`: the name of an `issuer_pools` pool; nil when not declared.
    public var issuers: String?
    /// `renewal.acme_directory`: the ACME directory whose renewal information gives the window, or
    /// `none` (`RenewalSettings.noDirectory`) to ask none; nil: the issuer catalog's, when it knows one.
    public var acmeDirectory: String?

    /// The `renewal.acme_directory` value that turns renewal information off.
    public static let noDirectory = "none"

    /// No declaration.
    public init(before: Double? = nil, key: RenewalOutlook.Key? = nil, issuers: String? = nil, acmeDirectory: String? = nil) {
        self.before = before
        self.key = key
        self.issuers = issuers
        self.acmeDirectory = acmeDirectory
    }

    /// This target's settings over the config-wide ones: each declared value wins.
    public func over(_ defaults: RenewalSettings) -> RenewalSettings {
        RenewalSettings(before: before ?? defaults.before, key: key ?? defaults.key, issuers: issuers ?? defaults.issuers,
                        acmeDirectory: acmeDirectory ?? defaults.acmeDirectory)
    }

    /// The ACME directory to ask for the renewal window of a leaf issued by the intermediate `issuerSPKI`:
    /// `acme_directory` when declared (nil for `none`), else the catalog's for that issuer.
    public func renewalInfoDirectory(issuerSPKI: String?, catalog: IssuerCatalog) -> String? {
        if let acmeDirectory { return acmeDirectory == Self.noDirectory ? nil : acmeDirectory }
        return issuerSPKI.flatMap { catalog.acmeDirectory(issuer: $0) }
    }
}

/// What the memory of served chains knows of a target's renewals.
public struct ObservedRenewals: Sendable, Equatable {
    /// Whether the last observed renewal kept the key; nil before the first.
    public var lastKeyReused: Bool?
    /// The distinct issuers the target was served by, each with its chain above the leaf.
    public var issuers: [IssuerOption]

    /// Creates what was observed.
    public init(lastKeyReused: Bool?, issuers: [IssuerOption]) {
        self.lastKeyReused = lastKeyReused
        self.issuers = issuers
    }
}

/// Decides a target's renewal outlook from what is known, first that applies for each part
/// (docs/reference.md, Forecast).
public enum RenewalOutlookBuilder {
    /// The outlook of the served chain `chain` (leaf first, verified when possible); nil without a chain. `stagedFile`
    /// names the file of `files:` that `staged` was read from; `window` is the CA's renewal window for the leaf,
    /// whose start is then the next renewal. An issuer whose certificate's `cert_sha256` is in `revoked` (a valid
    /// CRL lists it) issues no renewal: it is dropped from the plausible next issuers.
    public static func outlook(chain: [ChainCertificate], settings: RenewalSettings, staged: [ChainCertificate]?,
                               stagedFile: String? = nil, observed: ObservedRenewals?, pools: [String: [IssuerOption]],
                               catalog: IssuerCatalog, window: RenewalWindow? = nil, revoked: Set<String> = []) -> RenewalOutlook? {
        guard let leaf = chain.first else { return nil }
        let next = window?.start ?? RenewalForecaster.nextRenewal(of: leaf, before: settings.before)
        let newer = staged.flatMap { s in s.first.map { $0.notBefore > leaf.notBefore } == true ? s : nil }
        let (key, keyBasis) = nextKey(leaf, staged: newer, settings: settings, observed: observed)
        let (plausible, issuerBasis) = nextIssuers(chain, staged: newer, settings: settings, observed: observed, pools: pools, catalog: catalog)
        let issuers = plausible.filter { !revoked.contains($0.chain.first?.certSHA256 ?? "") }
        var outlook = RenewalOutlook(nextRenewal: next, key: key, keyBasis: keyBasis, stagedLeaf: newer?.first, issuers: issuers,
                                     issuerBasis: issuerBasis)
        outlook.stagedFile = newer == nil ? nil : stagedFile
        outlook.window = window
        outlook.whenBasis = window != nil ? .ari : settings.before != nil ? .before : .lifetime
        return outlook
    }

    static func nextKey(_ leaf: ChainCertificate, staged: [ChainCertificate]?, settings: RenewalSettings,
                        observed: ObservedRenewals?) -> (RenewalOutlook.Key, RenewalOutlook.KeyBasis) {
        if let s = staged?.first { return (s.spkiSHA256 == leaf.spkiSHA256 ? .reuse : .rotate, .staged) }
        if let k = settings.key { return (k, .declared) }
        if let reused = observed?.lastKeyReused { return (reused ? .reuse : .rotate, .observed) }
        return (.unknown, .unknown)
    }

    static func nextIssuers(_ chain: [ChainCertificate], staged: [ChainCertificate]?, settings: RenewalSettings,
                            observed: ObservedRenewals?, pools: [String: [IssuerOption]],
                            catalog: IssuerCatalog) -> ([IssuerOption], RenewalOutlook.IssuerBasis) {
        if let s = staged, s.count > 1 { return ([option(Array(s.dropFirst()))], .staged) }
        if let name = settings.issuers, let pool = pools[name], !pool.isEmpty { return (pool, .pool) }
        let above = Array(chain.dropFirst())
        if let current = above.first, let leaf = chain.first,
           let next = catalog.nextIssuers(after: current.spkiSHA256, leafKeyType: leaf.keyType) {
            return (next.map { IssuerOption(name: $0.name, chain: $0.chain) }, .catalog)
        }
        if let seen = observed?.issuers, seen.count > 1 { return (seen, .observed) }
        return above.isEmpty ? ([], .current) : ([option(above)], .current)
    }

    /// An option named by its issuing certificate's common name.
    static func option(_ chain: [ChainCertificate]) -> IssuerOption {
        IssuerOption(name: ServedChain.commonName(chain.first?.subject ?? ""), chain: chain)
    }
}
