import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto

/// Certificate revocation lists made with OpenSSL's CRL API, as `openssl ca -gencrl` makes them: for tests
/// and the demo.
public enum DemoCRL {
    /// One certificate to list as revoked.
    public struct Entry: Sendable {
        /// Its serial number.
        public var serial: Int
        /// When it was revoked, seconds relative to now.
        public var revokedAt: TimeInterval
        /// The reasonCode; none when nil.
        public var reason: RevocationReason?

        /// Creates an entry.
        public init(serial: Int, revokedAt: TimeInterval = -3600, reason: RevocationReason? = .keyCompromise) {
            self.serial = serial
            self.revokedAt = revokedAt
            self.reason = reason
        }
    }

    /// The DER bytes of a CRL issued in `issuer`'s name, signed by `signer` (the issuer's own key when nil:
    /// another key makes a list whose signature does not verify), listing `revoked`; thisUpdate and
    /// nextUpdate in seconds relative to now.
    public static func make(issuer: DemoCertificate, signer: DemoKey? = nil, revoked: [Entry] = [],
                            thisUpdate: TimeInterval = -60, nextUpdate: TimeInterval = 86_400) throws(ProbeError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let crl = X509_CRL_new() else { throw ProbeError.openSSL("CRL") }
        defer { X509_CRL_free(crl) }
        X509_CRL_set_version(crl, 1)
        X509_CRL_set_issuer_name(crl, X509_get_subject_name(issuer.pointer))
        try setTime(thisUpdate) { X509_CRL_set1_lastUpdate(crl, $0) }
        try setTime(nextUpdate) { X509_CRL_set1_nextUpdate(crl, $0) }
        for entry in revoked { try add(entry, to: crl) }
        X509_CRL_sort(crl)
        let key = (signer ?? issuer.key).pointer
        let digest = EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 ? nil : EVP_sha256()
        guard X509_CRL_sign(crl, key, digest) > 0, let der = CertificateReader.der(of: crl, encode: i2d_X509_CRL) else {
            throw ProbeError.openSSL("signing a CRL")
        }
        return der
    }

    /// `bytes` (a DER CRL) as one PEM `X509 CRL` block.
    public static func pem(_ bytes: [UInt8]) -> String {
        let body = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN X509 CRL-----\n\(body)\n-----END X509 CRL-----\n"
    }

    static func setTime(_ offset: TimeInterval, _ apply: (UnsafePointer<ASN1_TIME>) -> Int32) throws(ProbeError) {
        guard let t = X509_gmtime_adj(nil, Int(offset)) else { throw ProbeError.openSSL("CRL time") }
        defer { ASN1_TIME_free(t) }
        guard apply(t) == 1 else { throw ProbeError.openSSL("CRL time") }
    }

    static func add(_ entry: Entry, to crl: OpaquePointer) throws(ProbeError) {
        guard let revoked = X509_REVOKED_new() else { throw ProbeError.openSSL("CRL entry") }
        let serial = ASN1_INTEGER_new()
        defer { ASN1_INTEGER_free(serial) }
        ASN1_INTEGER_set(serial, entry.serial)
        X509_REVOKED_set_serialNumber(revoked, serial)
        try setTime(entry.revokedAt) { X509_REVOKED_set_revocationDate(revoked, UnsafeMutablePointer(mutating: $0)) }
        if let reason = entry.reason {
            let code = ASN1_ENUMERATED_new()
            defer { ASN1_ENUMERATED_free(code) }
            ASN1_ENUMERATED_set(code, reason.rawValue)
            X509_REVOKED_add1_ext_i2d(revoked, NID_crl_reason, code, 0, 0)
        }
        guard X509_CRL_add0_revoked(crl, revoked) == 1 else {
            X509_REVOKED_free(revoked)
            throw ProbeError.openSSL("CRL entry")
        }
    }
}
