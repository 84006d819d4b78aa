import COpenSSL
import Foundation
import PinGuardCore
import PinGuardFiles

/// The path from an issuing certificate to a trust anchor, built as a client builds it: from the certificates
/// given, then the configured CA file or the system trust store. A pool file (`issuer_pools`) may hold the
/// issuing certificate alone; the forecast judges the path a renewal under it would end at.
public enum IssuerPath {
    /// The certificates of `bytes` (named `file`; the issuing certificate first), completed up to a trust anchor
    /// of `caFile` (else the system store) when one is found; as given when none is (a private issuer whose
    /// root pinguard is not told of). Validity dates are not checked: a pool may list an issuer that has expired.
    public static func complete(_ bytes: [UInt8], file: String, caFile: String?) throws(ProbeError) -> [ChainCertificate] {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let certificates = try CertificateFile.parse(bytes, name: file)
        defer { certificates.forEach { X509_free($0) } }
        var given: [ChainCertificate] = []
        for x in certificates { given.append(try CertificateReader.facts(of: x, depth: given.count, source: .served)) }
        guard let issuer = certificates.first, !(given.last?.selfIssued ?? true) else { return given }
        guard let path = try anchoredPath(of: issuer, untrusted: Array(certificates.dropFirst()), caFile: caFile),
              path.count > given.count else { return given }
        let servedHashes = Set(given.map(\.certSHA256))
        return path.map { c in
            var c = c
            if !servedHashes.contains(c.certSHA256) { c.source = .store }
            return c
        }
    }

    /// The verified path from `target` to an anchor, or nil when OpenSSL finds none.
    static func anchoredPath(of target: OpaquePointer, untrusted certificates: [OpaquePointer],
                             caFile: String?) throws(ProbeError) -> [ChainCertificate]? {
        let store = try TrustStore.make(caFile: caFile)
        defer { X509_STORE_free(store) }
        guard let untrusted = pg_sk_X509_new_null() else { throw ProbeError.openSSL("certificate stack") }
        defer { pg_sk_X509_free(untrusted) }
        for x in certificates { _ = pg_sk_X509_push(untrusted, x) }
        guard let context = X509_STORE_CTX_new() else { throw ProbeError.openSSL("verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, target, untrusted) == 1 else { throw ProbeError.openSSL("verification context") }
        _ = X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_NO_CHECK_TIME))
        guard X509_verify_cert(context) == 1, let chain = X509_STORE_CTX_get1_chain(context) else { return nil }
        defer { pg_sk_X509_pop_free(chain) }
        var path: [ChainCertificate] = []
        for i in 0..<pg_sk_X509_num(chain) {
            guard let x = pg_sk_X509_value(chain, i) else { continue }
            path.append(try CertificateReader.facts(of: x, depth: Int(i), source: .served))
        }
        return path
    }
}
