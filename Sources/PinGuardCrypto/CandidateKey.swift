import COpenSSL
import Foundation
import PinGuardCore

/// The SubjectPublicKeyInfo of a key that is not in a certificate yet: a PEM public key, a private key
/// (its public half) or a certificate signing request, as a rotation is planned before a CA signs it.
public enum CandidateKey {
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo, and what the input was (`public key`, `private key`,
    /// `certificate request`), or an error naming `name`.
    public static func spkiSHA256(_ bytes: [UInt8], name: String) throws(ProbeError) -> (pin: String, kind: String) {
        guard bytes.count <= CertificateFile.maximumSize else { throw ProbeError("\(name): larger than 16 MiB, not a key") }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let text = String(decoding: bytes, as: UTF8.self)
        func bio() throws(ProbeError) -> OpaquePointer {
            guard let b = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
                throw ProbeError.openSSL("\(name): cannot allocate a buffer")
            }
            return b
        }
        var key: OpaquePointer?
        var kind = ""
        if text.contains("-----BEGIN CERTIFICATE REQUEST-----") || text.contains("-----BEGIN NEW CERTIFICATE REQUEST-----") {
            let b = try bio()
            defer { BIO_free(b) }
            if let request = PEM_read_bio_X509_REQ(b, nil, nil, nil) {
                defer { X509_REQ_free(request) }
                key = X509_REQ_get_pubkey(request)
            }
            kind = "certificate request"
        } else if text.contains("-----BEGIN PUBLIC KEY-----") {
            let b = try bio()
            defer { BIO_free(b) }
            key = PEM_read_bio_PUBKEY(b, nil, nil, nil)
            kind = "public key"
        } else if text.contains("PRIVATE KEY-----") {
            let b = try bio()
            defer { BIO_free(b) }
            // An encrypted key would ask for a passphrase on the terminal: refuse instead.
            guard !text.contains("ENCRYPTED") else { throw ProbeError("\(name): the private key is encrypted; give its public key (openssl pkey -pubout)") }
            key = PEM_read_bio_PrivateKey(b, nil, nil, nil)
            kind = "private key"
        } else {
            throw ProbeError("\(name): not a PEM public key, private key or certificate request")
        }
        guard let key else { throw ProbeError.openSSL("\(name): the \(kind) cannot be read") }
        defer { EVP_PKEY_free(key) }
        guard let der = CertificateReader.publicKeyDER(key) else { throw ProbeError.openSSL("\(name): cannot encode the public key") }
        return (CertificateReader.sha256Base64(der[...]), kind)
    }
}
