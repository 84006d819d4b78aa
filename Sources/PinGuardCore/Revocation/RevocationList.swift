import Foundation

// Revocation from CRLs lives in three layers: this folder judges (the list's facts, a certificate's state,
// the metric families); PinGuardCrypto/CRL reads and verifies the list's bytes and a certificate's
// distribution points; PinGuardService/Revocation fetches, caches and attaches the states to results.

/// What a certificate revocation list says, once its signature verified with the issuer's key: the facts
/// `RevocationJudge` judges a certificate by. Made only by `CRLReader` (or a test).
public struct RevocationList: Sendable, Equatable {
    /// The CRL issuer's name (RFC 2253, as `ChainCertificate.issuer` renders it).
    public var issuer: String
    /// thisUpdate.
    public var thisUpdate: Date
    /// nextUpdate; nil when the list has none (RFC 5280 requires it: such a list is not believed).
    public var nextUpdate: Date?
    /// The revoked serials (uppercase hex, as `ChainCertificate.serial`), each with its entry.
    public var revoked: [String: RevokedEntry]
    /// The issuing distribution point's limits; nil when the list has none (a complete CRL).
    public var scope: IssuingDistributionPoint?
    /// A delta CRL (RFC 5280 §5.2.4): only changes since a base CRL, not believed on its own.
    public var isDelta: Bool
    /// The OIDs of critical extensions pinguard does not understand (RFC 5280 §5.2: such a list is not used).
    public var unknownCriticalExtensions: [String]
    /// The serials whose entries were kept when the list was read for some certificates only; nil when `revoked`
    /// holds every entry. A serial outside it is not known to this copy, revoked or not.
    public var covered: Set<String>?

    /// Whether this copy can answer for `serial`: it holds every entry, or was read for that serial.
    public func answers(for serial: String) -> Bool { covered?.contains(serial) ?? true }

    /// Creates a list.
    public init(issuer: String, thisUpdate: Date, nextUpdate: Date?, revoked: [String: RevokedEntry],
                scope: IssuingDistributionPoint? = nil, isDelta: Bool = false, unknownCriticalExtensions: [String] = [],
                covered: Set<String>? = nil) {
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revoked = revoked
        self.scope = scope
        self.isDelta = isDelta
        self.unknownCriticalExtensions = unknownCriticalExtensions
        self.covered = covered
    }
}

/// One revoked certificate of a list.
public struct RevokedEntry: Sendable, Equatable {
    /// When it was revoked.
    public var revokedAt: Date
    /// The reasonCode entry extension; nil when absent (RFC 5280: then read as `unspecified`).
    public var reason: RevocationReason?

    /// Creates an entry.
    public init(revokedAt: Date, reason: RevocationReason?) {
        self.revokedAt = revokedAt
        self.reason = reason
    }
}

/// The CRL's issuing distribution point extension (RFC 5280 §5.2.5): which certificates the list covers.
public struct IssuingDistributionPoint: Sendable, Equatable {
    /// The URIs of its distributionPoint fullName (empty when it names none).
    public var uris: [String]
    /// Whether it names a distribution point at all (a fullName with other name forms, or a relative name).
    public var namesDistributionPoint: Bool
    /// onlyContainsUserCerts.
    public var onlyUserCertificates: Bool
    /// onlyContainsCACerts.
    public var onlyCACertificates: Bool
    /// onlyContainsAttributeCerts.
    public var onlyAttributeCertificates: Bool
    /// Whether onlySomeReasons is present: the list covers only some reasons.
    public var onlySomeReasons: Bool
    /// indirectCRL: entries may be for another issuer's certificates.
    public var indirect: Bool

    /// Creates the extension's facts.
    public init(uris: [String] = [], namesDistributionPoint: Bool = false, onlyUserCertificates: Bool = false,
                onlyCACertificates: Bool = false, onlyAttributeCertificates: Bool = false, onlySomeReasons: Bool = false,
                indirect: Bool = false) {
        self.uris = uris
        self.namesDistributionPoint = namesDistributionPoint || !uris.isEmpty
        self.onlyUserCertificates = onlyUserCertificates
        self.onlyCACertificates = onlyCACertificates
        self.onlyAttributeCertificates = onlyAttributeCertificates
        self.onlySomeReasons = onlySomeReasons
        self.indirect = indirect
    }
}

/// CRLReason (RFC 5280 §5.3.1).
public enum RevocationReason: Int, Sendable, CaseIterable {
    case unspecified = 0
    case keyCompromise = 1
    case cACompromise = 2
    case affiliationChanged = 3
    case superseded = 4
    case cessationOfOperation = 5
    case certificateHold = 6
    case removeFromCRL = 8
    case privilegeWithdrawn = 9
    case aACompromise = 10

    /// The name RFC 5280 gives it, e.g. `keyCompromise`.
    public var name: String {
        switch self {
        case .unspecified: "unspecified"
        case .keyCompromise: "keyCompromise"
        case .cACompromise: "cACompromise"
        case .affiliationChanged: "affiliationChanged"
        case .superseded: "superseded"
        case .cessationOfOperation: "cessationOfOperation"
        case .certificateHold: "certificateHold"
        case .removeFromCRL: "removeFromCRL"
        case .privilegeWithdrawn: "privilegeWithdrawn"
        case .aACompromise: "aACompromise"
        }
    }
}
