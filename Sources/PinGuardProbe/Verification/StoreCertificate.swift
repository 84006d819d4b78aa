import COpenSSL

/// One reference to a certificate of the trust store that a cached verification put in its chain, held so
/// the certificate outlives the cache entry even if the store dropped it.
package final class StoreCertificate: @unchecked Sendable {
    /// The certificate; this object owns one reference to it.
    let x509: OpaquePointer

    /// Takes a new reference to `x509`.
    init(_ x509: OpaquePointer) {
        X509_up_ref(x509)
        self.x509 = x509
    }

    deinit { X509_free(x509) }
}
