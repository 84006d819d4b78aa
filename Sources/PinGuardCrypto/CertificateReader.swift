import COpenSSL
import Foundation
import PinGuardCore

/// Reads the facts of X.509 certificates through OpenSSL: names, validity, serial, and the pin hashes.
public enum CertificateReader {
    /// Facts of one OpenSSL certificate handle (borrowed, not freed).
    package static func facts(of x509: OpaquePointer, depth: Int, source: CertificateSource) throws(ProbeError) -> ChainCertificate {
        let der = try derBytes(x509)
        let spki: ArraySlice<UInt8>
        do { spki = try DER.subjectPublicKeyInfo(ofCertificate: der) } catch {
            throw ProbeError("certificate at depth \(depth): \(error.message)")
        }
        var facts = ChainCertificate(
            depth: depth,
            subject: name(X509_get_subject_name(x509)),
            issuer: name(X509_get_issuer_name(x509)),
            serial: serial(x509),
            notBefore: time(X509_get0_notBefore(x509)),
            notAfter: time(X509_get0_notAfter(x509)),
            spkiSHA256: sha256Base64(spki),
            certSHA256: sha256Base64(der[...]),
            keyType: keyType(x509),
            isCA: X509_check_ca(x509) > 0,
            selfIssued: X509_check_issued(x509, x509) == X509_V_OK,
            source: source)
        facts.rawKeySHA256 = (try? DER.subjectPublicKeyBits(ofSPKI: spki)).map(sha256Base64)
        facts.spkiSHA1 = sha1Base64(spki)
        facts.crlDistributionPoints = CRLExtensions.distributionPoints(of: x509)
        if signsCRLs(x509) { facts.publicKeyDER = Array(spki) }
        facts.authorityKeyID = authorityKeyID(x509)
        return facts
    }

    /// Whether the certificate may sign CRLs: a CA whose key usage, when present, includes cRLSign. Only
    /// such a certificate keeps its key in the facts (`ChainCertificate.publicKeyDER`).
    static func signsCRLs(_ x509: OpaquePointer) -> Bool {
        guard X509_check_ca(x509) > 0 else { return false }
        return X509_get_extension_flags(x509) & UInt32(EXFLAG_KUSAGE) == 0 || X509_get_key_usage(x509) & UInt32(KU_CRL_SIGN) != 0
    }

    /// Parses a PEM bundle or a single DER certificate into facts (depth = order in the file).
    public static func load(_ bytes: [UInt8], file: String) throws(ProbeError) -> [ChainCertificate] {
        let certificates = try CertificateFile.parse(bytes, name: file)
        defer { certificates.forEach { X509_free($0) } }
        var out: [ChainCertificate] = []
        for x in certificates { out.append(try facts(of: x, depth: out.count, source: .served)) }
        return out
    }

    package static func derBytes(_ x509: OpaquePointer) throws(ProbeError) -> [UInt8] {
        guard let bytes = der(of: x509, encode: i2d_X509) else { throw ProbeError.openSSL("cannot encode certificate") }
        return bytes
    }

    /// The DER SubjectPublicKeyInfo of an `EVP_PKEY`, nil when OpenSSL cannot encode it.
    package static func publicKeyDER(_ key: OpaquePointer) -> [UInt8]? { der(of: key, encode: i2d_PUBKEY) }

    /// OpenSSL's two-call i2d pattern: the length first, then the bytes.
    package static func der(of object: OpaquePointer,
                            encode: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(object, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buf in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            _ = encode(object, &p)
        }
        return bytes
    }

    /// Base64 of SHA-256 over `bytes`.
    public static func sha256Base64(_ bytes: ArraySlice<UInt8>) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { buf in
            _ = SHA256(buf.baseAddress, buf.count, &digest)
        }
        return Base64.encode(digest)
    }

    /// Base64 of SHA-1 over `bytes` (OkHttp's `sha1/` pins).
    public static func sha1Base64(_ bytes: ArraySlice<UInt8>) -> String {
        var digest = [UInt8](repeating: 0, count: 20)
        bytes.withUnsafeBufferPointer { buf in
            _ = SHA1(buf.baseAddress, buf.count, &digest)
        }
        return Base64.encode(digest)
    }

    static func name(_ n: OpaquePointer?) -> String {
        guard let n, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = pg_X509_NAME_print_rfc2253(bio, n)
        return bioString(bio)
    }

    /// The contents of a memory BIO as text.
    package static func bioString(_ bio: OpaquePointer) -> String {
        var p: UnsafeMutablePointer<CChar>?
        let n = pg_BIO_get_mem_data(bio, &p)
        guard let p, n > 0 else { return "" }
        return p.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
        }
    }

    /// The Authority Key Identifier's keyIdentifier as uppercase hex; nil when absent.
    static func authorityKeyID(_ x509: OpaquePointer) -> String? {
        guard let id = X509_get0_authority_key_id(x509), let data = ASN1_STRING_get0_data(id) else { return nil }
        let count = Int(ASN1_STRING_length(id))
        guard count > 0 else { return nil }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in UnsafeBufferPointer(start: data, count: count) { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func serial(_ x509: OpaquePointer) -> String {
        guard let bn = ASN1_INTEGER_to_BN(X509_get_serialNumber(x509), nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { pg_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    /// The first notBefore or notAfter of `certificates` after `time` (`distantFuture` when none is): until when
    /// a verification of them holds.
    package static func firstValidityBoundary(of certificates: [OpaquePointer], after time: Date) -> Date {
        var first = Date.distantFuture
        for x in certificates {
            for t in [Self.time(X509_get0_notBefore(x)), Self.time(X509_get0_notAfter(x))] where t > time && t < first { first = t }
        }
        return first
    }

    /// A certificate time as a date (the epoch when OpenSSL cannot read it).
    package static func time(_ t: UnsafePointer<ASN1_TIME>?) -> Date {
        var tm = tm()
        guard let t, ASN1_TIME_to_tm(t, &tm) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }

    static func keyType(_ x509: OpaquePointer) -> String {
        guard let key = X509_get0_pubkey(x509) else { return "unknown" }
        let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
        let bits = EVP_PKEY_get_bits(key)
        return bits > 0 ? "\(name)-\(bits)" : name
    }
}
