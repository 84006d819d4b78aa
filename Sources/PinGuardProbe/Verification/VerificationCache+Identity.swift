import COpenSSL

extension VerificationCache {
    /// The names and address the verification parameters check the leaf against.
    static func identity(of param: OpaquePointer) -> CheckedIdentity {
        var identity = CheckedIdentity()
        var i: Int32 = 0
        while let host = X509_VERIFY_PARAM_get0_host(param, i) {
            identity.hosts.append(String(cString: host))
            i += 1
        }
        if let ip = X509_VERIFY_PARAM_get1_ip_asc(param) {
            identity.ip = String(cString: ip)
            pg_OPENSSL_free(ip)
        }
        return identity
    }

    /// What verifying the stored outcome's chain for `identity` gives, without verifying it again; nil when
    /// only a new verification can tell.
    ///
    /// OpenSSL builds the chain, checks its extensions, then checks the identity (and stops at a mismatch,
    /// with the chain as built), then the signatures and validity; only the identity step reads the name.
    /// So the outcome for the identity it was verified for stands as it is, and a chain that verified for
    /// one identity verifies for another exactly when the leaf names it, failing with OpenSSL's mismatch
    /// error at depth 0 otherwise. Any other failure hides whether the identity step was reached.
    static func answer(_ stored: VerificationOutcome, for identity: CheckedIdentity, leaf: OpaquePointer?,
                       param: OpaquePointer) -> (error: Int32, depth: Int32)? {
        if stored.identity == identity { return (stored.error, stored.errorDepth) }
        guard stored.error == X509_V_OK, let leaf else { return nil }
        let flags = X509_VERIFY_PARAM_get_hostflags(param)
        // As OpenSSL's check_id: any one of the names, then the address.
        if !identity.hosts.isEmpty, !identity.hosts.contains(where: { X509_check_host(leaf, $0, 0, flags, nil) > 0 }) {
            return (X509_V_ERR_HOSTNAME_MISMATCH, 0)
        }
        if let ip = identity.ip, X509_check_ip_asc(leaf, ip, 0) <= 0 {
            return (X509_V_ERR_IP_ADDRESS_MISMATCH, 0)
        }
        return (stored.error, stored.errorDepth)
    }
}
