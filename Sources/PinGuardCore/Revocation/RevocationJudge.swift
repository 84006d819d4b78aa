import Foundation

/// Judges a certificate against a CRL whose signature verified (RFC 5280 §6.3.3, in part): one early return
/// per rule, a state out.
///
/// Checked: the issuer's name, thisUpdate and nextUpdate, the issuing distribution point (its URIs against
/// the certificate's distribution points, user/CA/attribute-only lists), delta and indirect lists and
/// unknown critical extensions (not believed). Not done: building a separate CRL-signing path (the list must
/// be signed by the certificate's issuer itself), combining a delta with its base, reason-partitioned lists
/// (a list covering only some reasons is not believed unless it lists the certificate), and comparing names
/// beyond their RFC 2253 text.
public enum RevocationJudge {
    /// The state of `certificate` on `list` at `now`.
    public static func judge(_ certificate: ChainCertificate, on list: RevocationList, now: Date) -> RevocationState {
        if list.issuer != certificate.issuer { return .unknown(.wrongIssuer) }
        if list.thisUpdate > now.addingTimeInterval(clockSkew) { return .unknown(.notYetValid) }
        guard let nextUpdate = list.nextUpdate, nextUpdate > now else { return .unknown(.expired) }
        if list.isDelta || !list.unknownCriticalExtensions.isEmpty || list.scope?.indirect == true { return .unknown(.unsupported) }
        if let scope = list.scope, !covers(scope, certificate) { return .unknown(.outOfScope) }
        guard list.answers(for: certificate.serial) else { return .unknown(.notFetched) }
        if let entry = list.revoked[certificate.serial], entry.reason != .removeFromCRL {
            return .revoked(at: entry.revokedAt, reason: entry.reason)
        }
        if list.scope?.onlySomeReasons == true { return .unknown(.unsupported) }
        return .notRevoked(nextUpdate: nextUpdate)
    }

    /// Seconds a thisUpdate may lie ahead of pinguard's clock (the issuer's clock may run a little fast).
    public static let clockSkew: TimeInterval = 300

    /// Whether the issuing distribution point covers `certificate` (RFC 5280 §6.3.3 (b)(2)).
    static func covers(_ scope: IssuingDistributionPoint, _ certificate: ChainCertificate) -> Bool {
        if scope.onlyAttributeCertificates { return false }
        if scope.onlyUserCertificates && certificate.isCA { return false }
        if scope.onlyCACertificates && !certificate.isCA { return false }
        guard scope.namesDistributionPoint else { return true }
        return !Set(scope.uris).isDisjoint(with: certificate.crlDistributionPoints)
    }
}
