import COpenSSL
import Foundation
import PinGuardCore

// The CRL's other halves: PinGuardCore/Revocation judges a certificate by the list read here;
// PinGuardService/Revocation fetches and caches the lists.

/// Reads a certificate revocation list (DER, or one PEM `X509 CRL` block) as untrusted input and verifies
/// its signature with the issuer's key: a `RevocationList` when it parses and verifies, the reason otherwise.
public enum CRLReader {
    /// The largest list read: the fetcher's cap for CRLs.
    public static let maximumSize = FetchPurpose.crl.maxBytes

    /// The verified list of `bytes`, signed by the key of `issuerPublicKeyDER` (a DER SubjectPublicKeyInfo).
    ///
    /// `.unparseable` when the bytes are no CRL (or larger than `maximumSize`), `.badSignature` when the
    /// signature does not verify with that key (or the key cannot be read). With `only`, the list keeps the
    /// entries of those serials alone (`RevocationList.covered`): what a lookup needs, not a million entries.
    public static func read(_ bytes: [UInt8], issuerPublicKeyDER: [UInt8],
                            only serials: Set<String>? = nil) -> Result<RevocationList, RevocationUnknown> {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        if let serials, bytes.count <= maximumSize, let der = derBytes(bytes) {
            return CRLLeanReader.read(der, issuerPublicKeyDER: issuerPublicKeyDER, only: serials)
        }
        guard let crl = parse(bytes) else { return .failure(.unparseable) }
        defer { X509_CRL_free(crl) }
        guard let key = publicKey(issuerPublicKeyDER) else { return .failure(.badSignature) }
        defer { EVP_PKEY_free(key) }
        guard X509_CRL_verify(crl, key) == 1 else { return .failure(.badSignature) }
        return .success(facts(of: crl, only: serials))
    }

    /// The list's facts without verifying it: what the fuzz target exercises, and nothing else may believe.
    package static func unverifiedFacts(_ bytes: [UInt8]) -> RevocationList? {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let crl = parse(bytes) else { return nil }
        defer { X509_CRL_free(crl) }
        return facts(of: crl)
    }

    /// The list's facts for `serials` as the lean read makes them, without verifying it (the fuzz target's half
    /// of a comparison with `unverifiedFacts`).
    package static func unverifiedLeanFacts(_ bytes: [UInt8], only serials: Set<String>) -> RevocationList? {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard bytes.count <= maximumSize, let der = derBytes(bytes) else { return nil }
        return CRLLeanReader.unverified(der, only: serials)
    }

    /// An owned `X509_CRL` from DER or PEM bytes; nil when neither parses.
    static func parse(_ bytes: [UInt8]) -> OpaquePointer? {
        guard !bytes.isEmpty, bytes.count <= maximumSize else { return nil }
        if bytes.first == 0x30 {
            return bytes.withUnsafeBufferPointer { buf in
                var p: UnsafePointer<UInt8>? = buf.baseAddress
                return d2i_X509_CRL(nil, &p, buf.count)
            }
        }
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { return nil }
        defer { BIO_free(bio) }
        return PEM_read_bio_X509_CRL(bio, nil, nil, nil)
    }

    /// The DER of a list given as DER or as one PEM `X509 CRL` block (decoded here, without parsing the list);
    /// nil when it is neither.
    static func derBytes(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.first == 0x30 { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.range(of: "-----BEGIN X509 CRL-----"),
              let end = text.range(of: "-----END X509 CRL-----", range: begin.upperBound..<text.endIndex),
              let der = Data(base64Encoded: String(text[begin.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters),
              der.first == 0x30 else { return nil }
        return Array(der)
    }

    static func publicKey(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PUBKEY(nil, &p, buf.count)
        }
    }

    /// The facts of a parsed list.
    static func facts(of crl: OpaquePointer, only serials: Set<String>? = nil) -> RevocationList {
        let next = X509_CRL_get0_nextUpdate(crl)
        return RevocationList(
            issuer: CertificateReader.name(X509_CRL_get_issuer(crl)),
            thisUpdate: CertificateReader.time(X509_CRL_get0_lastUpdate(crl)),
            nextUpdate: next.map { CertificateReader.time($0) },
            revoked: entries(of: crl, only: serials),
            scope: CRLExtensions.issuingDistributionPoint(of: crl),
            isDelta: X509_CRL_get_ext_by_NID(crl, NID_delta_crl, -1) >= 0,
            unknownCriticalExtensions: CRLExtensions.unknownCritical(of: crl),
            covered: serials)
    }

    /// The revoked serials with their dates and reasons (of `serials` alone, when given); a later entry for the
    /// same serial replaces an earlier one.
    static func entries(of crl: OpaquePointer, only serials: Set<String>? = nil) -> [String: RevokedEntry] {
        guard let stack = X509_CRL_get_REVOKED(crl) else { return [:] }
        let count = pg_sk_X509_REVOKED_num(stack)
        var out: [String: RevokedEntry] = [:]
        if serials == nil { out.reserveCapacity(Int(max(count, 0))) }
        for i in 0..<count {
            guard let entry = pg_sk_X509_REVOKED_value(stack, i), let serial = serialHex(X509_REVOKED_get0_serialNumber(entry)),
                  serials?.contains(serial) ?? true else { continue }
            out[serial] = RevokedEntry(revokedAt: CertificateReader.time(X509_REVOKED_get0_revocationDate(entry)), reason: reason(of: entry))
        }
        return out
    }

    /// The entry's reasonCode; nil when absent or unreadable.
    static func reason(of entry: OpaquePointer) -> RevocationReason? {
        guard let raw = X509_REVOKED_get_ext_d2i(entry, NID_crl_reason, nil, nil) else { return nil }
        let code = raw.assumingMemoryBound(to: ASN1_ENUMERATED.self)
        defer { ASN1_ENUMERATED_free(code) }
        return RevocationReason(rawValue: ASN1_ENUMERATED_get(code))
    }

    /// A serial number as uppercase hex, as `CertificateReader.serial` writes a certificate's.
    static func serialHex(_ serial: UnsafePointer<ASN1_INTEGER>?) -> String? {
        guard let serial, let bn = ASN1_INTEGER_to_BN(serial, nil) else { return nil }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return nil }
        defer { pg_OPENSSL_free(hex) }
        return String(cString: hex)
    }
}
