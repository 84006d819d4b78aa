import COpenSSL

/// Reads a PKCS#12 (`.p12`/`.pfx`) client identity with OpenSSL.
enum PKCS12Identity {
    /// The certificate (first) with the other certificates of the file, and the private key; owned by the
    /// caller. A wrong password is reported as such, before any other parse error.
    static func parse(_ bytes: [UInt8], password: String, name: String) throws(ProbeError) -> ([OpaquePointer], OpaquePointer) {
        var p12: OpaquePointer?
        bytes.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            p12 = d2i_PKCS12(nil, &p, buf.count)
        }
        guard let p12 else { throw ProbeError.openSSL("\(name): not a PKCS#12 file") }
        defer { PKCS12_free(p12) }
        // With an empty password PKCS12_parse tries both the empty string and no password itself.
        if !password.isEmpty, PKCS12_mac_present(p12) == 1,
           PKCS12_verify_mac(p12, password, Int32(password.utf8.count)) != 1 {
            throw ProbeError("\(name): wrong password (the PKCS#12 MAC does not verify with client_pkcs12_password_file)")
        }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var others: OpaquePointer?
        guard PKCS12_parse(p12, password, &key, &certificate, &others) == 1 else {
            throw ProbeError.openSSL("\(name): cannot read the PKCS#12 file (wrong password, or an algorithm OpenSSL 3 only has in its legacy provider)")
        }
        var certificates: [OpaquePointer] = certificate.map { [$0] } ?? []
        if let others {
            for i in 0..<pg_sk_X509_num(others) {
                guard let x = pg_sk_X509_value(others, i), X509_up_ref(x) == 1 else { continue }
                certificates.append(x)
            }
            pg_sk_X509_pop_free(others)
        }
        guard let key, certificate != nil else {
            certificates.forEach { X509_free($0) }
            if let key { EVP_PKEY_free(key) }
            throw ProbeError("\(name): the PKCS#12 file holds no \(key == nil ? "private key" : "certificate for its key")")
        }
        guard let adopted = KeyDecoding.adopt(key) else {
            certificates.forEach { X509_free($0) }
            throw ProbeError.openSSL("\(name): cannot hold the private key")
        }
        return (certificates, adopted)
    }
}
