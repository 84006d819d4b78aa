import COpenSSL

/// Builds and signs X.509 v3 certificates with OpenSSL for the demo and test PKIs (what `openssl req -x509`
/// and `openssl ca` do): subject `O=ORGANIZATION, CN=...`, basic constraints (with a path length when given), key usage, subject key
/// identifier, and an optional extended key usage, subject alternative name, authority key identifier, CRL
/// distribution point and caIssuers URL.
enum CertificateBuilder {
    /// A certificate for `key` signed by `issuerKey`, issued by `issuer` (self-issued when nil); validity in
    /// seconds relative to now. Nil when OpenSSL refuses (its error queue says why).
    static func make(key: OpaquePointer, issuerKey: OpaquePointer, issuer: OpaquePointer?, commonName: String,
                     subjectAltName: String?, isCA: Bool, notBefore: Int, notAfter: Int, serial: Int,
                     organization: String? = "pinguard demo", extendedKeyUsage: String? = nil,
                     authorityKeyID: Bool = false, crlDistributionPoint: String? = nil, pathLength: Int? = nil,
                     caIssuers: String? = nil) -> OpaquePointer? {
        guard let x = X509_new() else { return nil }
        X509_set_version(x, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(x), serial)
        X509_gmtime_adj(X509_getm_notBefore(x), notBefore)
        X509_gmtime_adj(X509_getm_notAfter(x), notAfter)
        X509_set_pubkey(x, key)
        let name = X509_get_subject_name(x)
        if let organization { X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, organization, -1, -1, 0) }
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_set_issuer_name(x, issuer.map { X509_get_subject_name($0) } ?? name)
        var ctx = X509V3_CTX()
        X509V3_set_ctx(&ctx, issuer ?? x, x, nil, nil, 0)
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, isCA ? "critical,CA:TRUE" + (pathLength.map { ",pathlen:\($0)" } ?? "") : "critical,CA:FALSE"),
            (NID_key_usage, isCA ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature,keyEncipherment"),
            (NID_subject_key_identifier, "hash"),
        ]
        if let extendedKeyUsage { extensions.append((NID_ext_key_usage, extendedKeyUsage)) }
        if let subjectAltName { extensions.append((NID_subject_alt_name, subjectAltName)) }
        if let crlDistributionPoint { extensions.append((NID_crl_distribution_points, "URI:\(crlDistributionPoint)")) }
        if let caIssuers { extensions.append((NID_info_access, "caIssuers;URI:\(caIssuers)")) }
        if authorityKeyID, issuer != nil { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        for (nid, value) in extensions {
            guard let e = X509V3_EXT_conf_nid(nil, &ctx, nid, value) else { X509_free(x); return nil }
            let added = X509_add_ext(x, e, -1)
            X509_EXTENSION_free(e)
            guard added == 1 else { X509_free(x); return nil }
        }
        // Ed25519 signs without a separate digest.
        let digest = EVP_PKEY_get_id(issuerKey) == EVP_PKEY_ED25519 ? nil : EVP_sha256()
        guard X509_sign(x, issuerKey, digest) > 0 else { X509_free(x); return nil }
        return x
    }

    /// A TLS server context serving `leaf` with `key`, plus `chain` (usually the intermediate).
    static func serverContext(leaf: OpaquePointer, key: OpaquePointer, chain: OpaquePointer?) -> OpaquePointer? {
        guard let c = SSL_CTX_new(TLS_server_method()) else { return nil }
        guard SSL_CTX_use_certificate(c, leaf) == 1, SSL_CTX_use_PrivateKey(c, key) == 1,
              chain.map({ pg_SSL_CTX_add1_chain_cert(c, $0) == 1 }) ?? true else {
            SSL_CTX_free(c)
            return nil
        }
        return c
    }
}
