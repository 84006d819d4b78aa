import COpenSSL
import PinGuardCore

/// The key a log list's publisher signs it with (`ct.log_list_keys`), checking a detached signature over the
/// list's exact bytes as Chrome's publisher makes it: SHA-256, and RSASSA-PKCS1-v1_5 for an RSA key (Google's
/// key is RSA 4096), DER ECDSA for an EC key; the same check as
/// `openssl dgst -sha256 -verify log_list_pubkey.pem -signature log_list.sig log_list.json`.
public final class LogListSignatureKey: @unchecked Sendable {
    let pkey: OpaquePointer
    /// What the key is, e.g. `RSA-4096`, for messages.
    public let summary: String

    /// Reads a PEM `PUBLIC KEY`; throws naming `name` and the problem (not PEM, a key too weak to trust).
    public init(pem bytes: [UInt8], name: String) throws(ProbeError) {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw ProbeError.openSSL("\(name): cannot allocate a buffer")
        }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
            throw ProbeError("\(name): no PEM public key (-----BEGIN PUBLIC KEY-----) in the file")
        }
        let type = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "?"
        let bits = Int(EVP_PKEY_get_bits(key))
        // Chrome's key is RSA 4096; anything weaker than RSA 2048 or P-256 is not a key to trust a log list to.
        guard (type == "RSA" && bits >= 2048) || (type == "EC" && bits >= 256) else {
            EVP_PKEY_free(key)
            throw ProbeError("\(name): a \(type)-\(bits) key; a log list key is RSA (2048 bits or more) or EC (P-256 or larger)")
        }
        pkey = key
        summary = "\(type)-\(bits)"
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Whether `signature` is this key's signature over exactly `document`'s bytes.
    public func verifies(_ document: [UInt8], signature: [UInt8]) -> Bool {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard !signature.isEmpty, let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, pkey) == 1 else { return false }
        return signature.withUnsafeBufferPointer { s in
            document.withUnsafeBufferPointer { d in EVP_DigestVerify(ctx, s.baseAddress, s.count, d.baseAddress, d.count) == 1 }
        }
    }
}
