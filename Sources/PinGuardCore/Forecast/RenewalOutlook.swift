import Foundation

/// What the next renewal of a target's certificate will plausibly bring: when it happens, which key the
/// new leaf has, and from which issuers it may come (docs/reference.md, Forecast).
public struct RenewalOutlook: Sendable, Equatable {
    /// The key of the next leaf.
    public enum Key: String, Sendable {
        /// The current leaf key is kept.
        case reuse
        /// A new key, which no pin names unless it was staged.
        case rotate
        /// Not known; judged as `rotate`.
        case unknown
    }

    /// Where the key expectation comes from.
    public enum KeyBasis: String, Sendable {
        /// A staged chain in `files:` newer than the served leaf.
        case staged
        /// `renewal.key` in the configuration.
        case declared
        /// The last renewal observed by the memory of served chains.
        case observed
        /// Nothing says.
        case unknown
    }

    /// Where the issuer pool comes from.
    public enum IssuerBasis: String, Sendable {
        /// The staged chain's issuer.
        case staged
        /// `renewal.issuers` naming a pool of `issuer_pools`.
        case pool
        /// The bundled catalog's pool holding the current issuer.
        case catalog
        /// The issuers observed for this target.
        case observed
        /// The current issuer alone.
        case current
    }

    /// Where the date of the next renewal comes from.
    public enum WhenBasis: String, Sendable {
        /// The start of the renewal window the CA suggests (ACME Renewal Information, RFC 9773).
        case ari
        /// `renewal.before` before notAfter.
        case before
        /// A third of the leaf's lifetime before notAfter.
        case lifetime
    }

    /// When the next renewal is expected.
    public var nextRenewal: Date
    /// Why then.
    public var whenBasis: WhenBasis = .lifetime
    /// The CA's renewal window for the served leaf, when its renewal information gave one.
    public var window: RenewalWindow?
    /// The next leaf's key.
    public var key: Key
    /// Why that key.
    public var keyBasis: KeyBasis
    /// The staged leaf, when the key is staged (its key is the next key).
    public var stagedLeaf: ChainCertificate?
    /// The file of `files:` the staged leaf was read from.
    public var stagedFile: String?
    /// The issuers the next certificate may come from, each with its path to a root.
    public var issuers: [IssuerOption]
    /// Why those issuers.
    public var issuerBasis: IssuerBasis

    /// Creates an outlook.
    public init(nextRenewal: Date, key: Key, keyBasis: KeyBasis, stagedLeaf: ChainCertificate? = nil,
                issuers: [IssuerOption], issuerBasis: IssuerBasis) {
        self.nextRenewal = nextRenewal
        self.key = key
        self.keyBasis = keyBasis
        self.stagedLeaf = stagedLeaf
        self.issuers = issuers
        self.issuerBasis = issuerBasis
    }
}

extension RenewalOutlook {
    /// Whether the outlook knows nothing beyond the served chain: the next key unknown, the current issuer
    /// alone and the date from the lifetime (what `pinguard_renewal_forecast_info` leaves unsaid).
    public var assumesNothing: Bool {
        key == .unknown && keyBasis == .unknown && issuerBasis == .current && issuers.count == 1 && whenBasis == .lifetime
    }
}

/// One issuer a renewal may come from: its name and the chain above the leaf (the issuing certificate
/// first, then up to and including a root).
public struct IssuerOption: Sendable, Equatable {
    /// A short name (`R11`, or the issuer's common name).
    public var name: String
    /// The issuing certificate, then its issuers up to a root.
    public var chain: [ChainCertificate]
    /// The paths each client builds above the issuing certificate, version by version, each starting at it
    /// (`IssuerPathsSource`); nil when not known: the next chain is then judged on `chain`.
    public var clientPaths: ClientPaths?

    /// Creates an option.
    public init(name: String, chain: [ChainCertificate]) {
        self.name = name
        self.chain = chain
    }
}

/// One policy set's forecast for a target's next renewal.
public struct SetForecast: Sendable, Hashable {
    /// The policy set.
    public var policySet: String
    /// The environment it was judged in.
    public var environment: String
    /// Share of the plausible next chains the set's client rejects: 0 survives every one, 1 breaks on all.
    public var rejectRatio: Double
    /// The next renewal, when the ratio is above 0.
    public var breakage: Date?
    /// The issuers under which the client rejects the next chain, by name.
    public var uncoveredIssuers: [String]
    /// Whether the next leaf's key matches none of the set's pins (a new, unpinned key).
    public var keyUnpinned: Bool
    /// The next keys the set would accept under every plausible issuer, when the forecast breaks it.
    public var safeKeys = SafeKeys()
    /// The client's versions whose path rejects the next chain, in words (`Android API 34-37`), when the set is
    /// judged on its client's paths and some of its versions accept it; nil: every version the set is judged on.
    public var rejectingVersions: String?

    /// Creates a forecast.
    public init(policySet: String, environment: String, rejectRatio: Double, breakage: Date?, uncoveredIssuers: [String],
                keyUnpinned: Bool) {
        self.policySet = policySet
        self.environment = environment
        self.rejectRatio = rejectRatio
        self.breakage = breakage
        self.uncoveredIssuers = uncoveredIssuers
        self.keyUnpinned = keyUnpinned
    }
}

/// The next keys under which a set accepts every plausible next chain: what makes a renewal safe for it.
public struct SafeKeys: Sendable, Hashable {
    /// Keeping the current leaf key (`renewal.key: reuse`, certbot `--reuse-key`) keeps the set accepting.
    public var keepCurrent: Bool
    /// SPKI pins of the set that no certificate carries today, under which the set accepts: pinned backup keys.
    public var pinnedBackups: [String]

    /// Creates the safe keys (none by default).
    public init(keepCurrent: Bool = false, pinnedBackups: [String] = []) {
        self.keepCurrent = keepCurrent
        self.pinnedBackups = pinnedBackups
    }

    /// Whether any next key keeps the set accepting.
    public var any: Bool { keepCurrent || !pinnedBackups.isEmpty }
}
