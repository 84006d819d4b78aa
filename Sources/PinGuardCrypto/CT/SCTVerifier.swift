import COpenSSL
import Foundation
import PinGuardCore

/// Checks Signed Certificate Timestamps with OpenSSL's own verifier (`SCT_validate`) against the keys of
/// a `CTLogKeyring`, at a validation time the caller gives (an SCT dated after it is `invalid`, as OpenSSL
/// rules).
///
/// An SCT found in the certificate (embedded) is signed over the precertificate, which OpenSSL rebuilds
/// from the certificate and the issuer's public key: without the issuer such an SCT cannot be checked and
/// comes out `invalid`, as a client that lacks the issuer would treat it. SCTs from the TLS extension or a
/// stapled OCSP response are signed over the certificate itself and need no issuer. A list that does not
/// parse contributes no SCTs (OpenSSL drops it whole); an SCT of an unknown version is `invalid`, with an
/// empty log ID and a zero timestamp (OpenSSL reads neither from it).
///
/// Bounded as input from a server: the first `maxSCTs` SCTs of a certificate or handshake are read, the
/// rest ignored; an SCT over `maxSCTBytes` is `invalid` without its signature being checked (no log signs
/// one: a version 1 SCT is 47 bytes, its extensions, which logs leave empty, and a signature of at most 512
/// bytes), and never remembered.
public enum SCTVerifier {
    /// SCTs read from one certificate or handshake; a client needs two or three.
    public static let maxSCTs = 64
    /// The largest SCT whose signature is checked, in bytes as on the wire.
    public static let maxSCTBytes = 1024

    /// The embedded SCTs of a certificate file's leaf (the first certificate of `leaf`, DER or PEM), checked
    /// with `issuer` (the first certificate of those bytes; nil when unknown) at `time`.
    public static func embeddedSCTs(leaf: [UInt8], issuer: [UInt8]?, keyring: CTLogKeyring,
                                    at time: Date) throws(ProbeError) -> [ObservedSCT] {
        let leafCertificates = try CertificateFile.parse(leaf, name: "leaf certificate")
        defer { leafCertificates.forEach { X509_free($0) } }
        var issuerCertificates: [OpaquePointer] = []
        defer { issuerCertificates.forEach { X509_free($0) } }
        if let issuer { issuerCertificates = try CertificateFile.parse(issuer, name: "issuer certificate") }
        guard let x = leafCertificates.first else { return [] }
        return embeddedSCTs(of: x, issuer: issuerCertificates.first, keyring: keyring, at: time)
    }

    /// The embedded SCTs of the certificate `x` (an `X509`), checked with `issuer` at `time`.
    static func embeddedSCTs(of x: OpaquePointer, issuer: OpaquePointer?, keyring: CTLogKeyring, at time: Date) -> [ObservedSCT] {
        guard let list = X509_get_ext_d2i(x, NID_ct_precert_scts, nil, nil) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        let scts = OpaquePointer(list)
        defer { SCT_LIST_free(scts) }
        for i in 0..<pg_sk_SCT_num(scts) {
            // Decoded outside a connection, the SCTs do not know where they came from, and the source
            // decides which entry (precertificate or certificate) the signature covers.
            if let sct = pg_sk_SCT_value(scts, i) { _ = SCT_set_source(sct, SCT_SOURCE_X509V3_EXTENSION) }
        }
        return verify(scts, leaf: x, issuer: issuer, keyring: keyring, at: time)
    }

    /// Every SCT the peer of a finished handshake presented (certificate extension, TLS extension, stapled
    /// OCSP response), checked at `time`; `issuer` is the leaf's issuer certificate, if known. The order is
    /// OpenSSL's gathering order, not the order on the wire.
    ///
    /// OpenSSL gathers nothing when the TLS extension's or the OCSP response's list does not parse; the
    /// certificate's embedded SCTs are then read from the certificate itself, so a malformed list from the
    /// server costs the SCTs of that list only.
    package static func peerSCTs(of ssl: OpaquePointer, issuer: OpaquePointer?, keyring: CTLogKeyring,
                                 at time: Date) -> [ObservedSCT] {
        guard let leaf = SSL_get0_peer_certificate(ssl) else { return [] }
        guard let scts = SSL_get0_peer_scts(ssl) else {
            OpenSSLErrorQueue.clear()
            return embeddedSCTs(of: leaf, issuer: issuer, keyring: keyring, at: time)
        }
        return verify(scts, leaf: leaf, issuer: issuer, keyring: keyring, at: time)
    }

    /// Checks each SCT of `scts` (a `STACK_OF(SCT)`) for `leaf`.
    static func verify(_ scts: OpaquePointer, leaf: OpaquePointer, issuer: OpaquePointer?, keyring: CTLogKeyring,
                       at time: Date) -> [ObservedSCT] {
        let count = pg_sk_SCT_num(scts)
        guard count > 0, let context = CT_POLICY_EVAL_CTX_new() else { return [] }
        defer { CT_POLICY_EVAL_CTX_free(context) }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let milliseconds = UInt64(clamping: Int64((time.timeIntervalSince1970 * 1000).rounded(.down)))
        // SCT_validate reads the certificate without checking that there is one.
        guard CT_POLICY_EVAL_CTX_set1_cert(context, leaf) == 1 else { return [] }
        if let issuer { _ = CT_POLICY_EVAL_CTX_set1_issuer(context, issuer) }
        CT_POLICY_EVAL_CTX_set_shared_CTLOG_STORE(context, keyring.store)
        CT_POLICY_EVAL_CTX_set_time(context, milliseconds)
        let leafHash = sha256(leaf), issuerHash = issuer.map(sha256) ?? []
        let cacheable = !leafHash.isEmpty && (issuer == nil || !issuerHash.isEmpty)
        var out: [ObservedSCT] = []
        for i in 0..<min(count, Int32(maxSCTs)) {
            guard let sct = pg_sk_SCT_value(scts, i) else { continue }
            let source = source(of: sct)
            let timestamp = SCT_get_timestamp(sct)
            let bytes = encoded(sct)
            // Reused only when the time check cannot decide (see SCTVerdictCache).
            let key = cacheable && timestamp <= milliseconds && bytes.count <= maxSCTBytes
                ? SCTVerdictCache.Key(leaf: leafHash, issuer: issuerHash, source: source, sct: bytes) : nil
            let status = bytes.count > maxSCTBytes ? .invalid : status(of: sct, in: context, remembered: key, by: keyring)
            out.append(ObservedSCT(logID: logID(of: sct), timestamp: Date(timeIntervalSince1970: Double(timestamp) / 1000),
                                   source: source, status: status))
        }
        return out
    }

    /// The verdict on one SCT: remembered under `key`, else OpenSSL's (then remembered).
    static func status(of sct: OpaquePointer, in context: OpaquePointer, remembered key: SCTVerdictCache.Key?,
                       by keyring: CTLogKeyring) -> SCTStatus {
        if let key, let known = keyring.verdicts.verdict(key) { return known }
        _ = SCT_validate(sct, context)
        let status = verdict(SCT_get_validation_status(sct))
        if let key { keyring.verdicts.remember(status, for: key) }
        return status
    }

    /// OpenSSL's status as pinguard's: every way of not verifying but an unknown log is `invalid`.
    static func verdict(_ status: sct_validation_status_t) -> SCTStatus {
        switch status {
        case SCT_VALIDATION_STATUS_VALID: .valid
        case SCT_VALIDATION_STATUS_UNKNOWN_LOG: .unknownLog
        default: .invalid
        }
    }

    static func source(of sct: OpaquePointer) -> SCTSource {
        switch SCT_get_source(sct) {
        case SCT_SOURCE_TLS_EXTENSION: .tls
        case SCT_SOURCE_OCSP_STAPLED_RESPONSE: .ocsp
        default: .embedded
        }
    }

    static func logID(of sct: OpaquePointer) -> String {
        var p: UnsafeMutablePointer<UInt8>?
        let length = SCT_get0_log_id(sct, &p)
        guard let p, length > 0 else { return "" }
        return Base64.encode(Array(UnsafeBufferPointer(start: p, count: length)))
    }

    /// The SCT as it was on the wire (OpenSSL re-encodes what it parsed).
    static func encoded(_ sct: OpaquePointer) -> [UInt8] {
        var p: UnsafeMutablePointer<UInt8>?
        let length = i2o_SCT(sct, &p)
        guard let p, length > 0 else { return [] }
        defer { pg_OPENSSL_free(p) }
        return Array(UnsafeBufferPointer(start: p, count: Int(length)))
    }

    static func sha256(_ x509: OpaquePointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(x509, EVP_sha256(), &digest, &length) == 1 else { return [] }
        return Array(digest.prefix(Int(length)))
    }
}
