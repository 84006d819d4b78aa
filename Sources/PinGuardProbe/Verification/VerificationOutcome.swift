import Foundation

/// What one run of `X509_verify_cert` left in its store context: the result the handshake reports, the
/// chain it built, and until when the same inputs give the same answer.
package struct VerificationOutcome: Sendable {
    /// The names and address the leaf was checked against.
    let identity: CheckedIdentity
    /// `X509_verify_cert`'s return value, 1 or 0 (internal failures, below 0, are never cached).
    let returned: Int32
    /// The verification error (`X509_V_OK` when trusted) and the depth it was found at.
    let error: Int32
    let errorDepth: Int32
    /// The chain the verification built, as `SSL_get0_verified_chain` hands it out (nil: none).
    let chain: [VerifiedLink]?
    /// The first certificate validity boundary (a notBefore or notAfter of a served or chain certificate)
    /// after the verification: from then on the same chain may verify differently.
    var validUntil: Date

    /// An outcome as a verification leaves it.
    package init(identity: CheckedIdentity, returned: Int32, error: Int32, errorDepth: Int32, chain: [VerifiedLink]?,
                 validUntil: Date) {
        self.identity = identity
        self.returned = returned
        self.error = error
        self.errorDepth = errorDepth
        self.chain = chain
        self.validUntil = validUntil
    }
}

extension VerificationOutcome {
    /// What the entry costs a cache: the checked names, the chain's links, the key and the table's share.
    var cost: Int {
        256 + identity.hosts.reduce(0) { $0 + $1.utf8.count + 16 } + (identity.ip?.utf8.count ?? 0) + 16 * (chain?.count ?? 0)
    }
}
