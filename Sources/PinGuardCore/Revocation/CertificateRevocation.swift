import Foundation

/// What is known of one certificate's revocation: the answer of the first distribution point that gave a
/// believable one.
public struct CertificateRevocation: Sendable, Equatable {
    /// Position in the evaluated chain, 0 = leaf.
    public var depth: Int
    /// The distribution point the answer comes from (the first one tried when none answered).
    public var url: String
    /// The answer.
    public var state: RevocationState

    /// Creates an answer.
    public init(depth: Int, url: String, state: RevocationState) {
        self.depth = depth
        self.url = url
        self.state = state
    }
}

/// A certificate's standing on a CRL.
public enum RevocationState: Sendable, Equatable {
    /// Listed as revoked by a valid CRL.
    case revoked(at: Date, reason: RevocationReason?)
    /// Covered by a valid CRL and not listed; the list is good until `nextUpdate`.
    case notRevoked(nextUpdate: Date)
    /// No valid CRL answers for it.
    case unknown(RevocationUnknown)

    /// `revoked`, `not_revoked` or `unknown`: the word `probe --json` and the status page show.
    public var word: String {
        switch self {
        case .revoked: "revoked"
        case .notRevoked: "not_revoked"
        case .unknown: "unknown"
        }
    }

    /// Whether a valid CRL lists the certificate.
    public var isRevoked: Bool {
        if case .revoked = self { return true }
        return false
    }

    /// The value of `pinguard_certificate_revoked`: 1, 0, or nil when no valid CRL is known.
    public var metricValue: Double? {
        switch self {
        case .revoked: 1
        case .notRevoked: 0
        case .unknown: nil
        }
    }
}

/// Why no valid CRL answers for a certificate.
public enum RevocationUnknown: String, Sendable, Equatable, Error {
    /// The list's bytes are not a CRL (DER or PEM).
    case unparseable
    /// Its signature does not verify with the issuer's key, or the issuer may not sign CRLs.
    case badSignature = "bad_signature"
    /// Its issuer is not the certificate's issuer.
    case wrongIssuer = "wrong_issuer"
    /// Past its nextUpdate (stale), or without one.
    case expired
    /// Its thisUpdate lies in the future.
    case notYetValid = "not_yet_valid"
    /// Its issuing distribution point excludes the certificate (another distribution point, user or CA
    /// certificates only, attribute certificates only).
    case outOfScope = "out_of_scope"
    /// A list pinguard does not judge alone: a delta CRL, an indirect CRL, one covering some reasons only,
    /// or one with a critical extension pinguard does not understand.
    case unsupported
    /// The fetch failed or was refused, or the server answered with another status than 200.
    case fetchFailed = "fetch_failed"
    /// The chain holds no issuer certificate to verify the list with.
    case noIssuer = "no_issuer"
    /// No list is known for the point yet: lists are fetched beside the rounds and used from when they arrive
    /// (a `GET /probe` never fetches one, and answers from the lists already known).
    case notFetched = "not_fetched"
    /// The point is past the caps: the first `maxPointsPerCertificate` points of a certificate are asked, and at
    /// most `maxPoints` distinct points (with their issuers) are tracked at once.
    case tooManyPoints = "too_many_points"
}
