/// What a log signs an SCT over (RFC 6962 §3.2 `signed_entry`): the final certificate, or the
/// precertificate's TBSCertificate (without the poison extension) with the issuer's key hash.
public enum SCTSignedEntry: Sendable {
    /// `x509_entry`: the certificate's DER; for SCTs served in the TLS extension or a stapled OCSP response.
    case certificate(der: [UInt8])
    /// `precert_entry`: SHA-256 of the issuer's DER SubjectPublicKeyInfo and the TBSCertificate; for SCTs
    /// embedded in the certificate.
    case precertificate(issuerKeyHash: [UInt8], tbs: [UInt8])

    /// `LogEntryType` followed by the entry, TLS-encoded.
    var encoded: [UInt8] {
        switch self {
        case .certificate(let der):
            TLSBytes.integer(0, width: 2) + TLSBytes.vector(der, lengthWidth: 3)
        case .precertificate(let issuerKeyHash, let tbs):
            TLSBytes.integer(1, width: 2) + issuerKeyHash + TLSBytes.vector(tbs, lengthWidth: 3)
        }
    }
}
