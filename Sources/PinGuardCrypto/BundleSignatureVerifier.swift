import COpenSSL
import PinGuardCore

/// Verifies a signed blob exactly as PinGuard's verifiers do, with OpenSSL EVP: HMAC-SHA256 over the payload
/// bytes compared in constant time (`CRYPTO_memcmp`), or ECDSA P-256 with SHA-256 over the payload bytes, the
/// signature given raw (`r || s`, 64 bytes, as CryptoKit's `rawRepresentation`) or DER.
public enum BundleSignatureVerifier {
    /// Throws the reason a client rejects a blob signed by `scheme` (nil: it names none) with `signature` over
    /// `payload`; returns when the signature verifies.
    ///
    /// - Parameters:
    ///   - hmacSecrets: secrets by secret ID (the exact key bytes).
    ///   - ecdsaKeys: public keys by key ID.
    public static func verify(scheme: SignatureScheme?, payload: [UInt8], signature: [UInt8], hmacSecrets: [String: [UInt8]],
                              ecdsaKeys: [String: PublicKey]) throws(PolicyBundleError) {
        guard let scheme, !signature.isEmpty else {
            throw PolicyBundleError(.unsigned, scheme == nil ? "the bundle names no signatureType" : "the bundle has no signature")
        }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        switch scheme {
        case .hmacSHA256(let id):
            guard let secret = hmacSecrets[id] else {
                throw PolicyBundleError(.unknownKey, "HMAC secret ID \(EchoedInput.quoted(id)) is not configured (hmac_secrets)")
            }
            guard hmacMatches(payload, signature, secret: secret) else {
                throw PolicyBundleError(.invalidSignature, "the HMAC-SHA256 does not verify with secret \(EchoedInput.quoted(id))")
            }
        case .ecdsaP256(let id):
            guard let key = ecdsaKeys[id] else {
                throw PolicyBundleError(.unknownKey, "ECDSA key ID \(EchoedInput.quoted(id)) is not configured (ecdsa_public_keys)")
            }
            guard let der = derSignature(signature), ecdsaVerifies(payload, der, key) else {
                throw PolicyBundleError(.invalidSignature, "the ECDSA P-256 signature does not verify with key \(EchoedInput.quoted(id))")
            }
        }
    }

    static func hmacMatches(_ payload: [UInt8], _ signature: [UInt8], secret: [UInt8]) -> Bool {
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        let ok = secret.withUnsafeBufferPointer { k in
            payload.withUnsafeBufferPointer { d in
                EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, k.baseAddress, k.count, d.baseAddress, d.count, &mac, mac.count, &length)
            }
        }
        // A signature of another length cannot be a SHA-256 MAC; only equal lengths are compared, in constant time.
        guard ok != nil, length == 32, signature.count == 32 else { return false }
        return CRYPTO_memcmp(mac, signature, 32) == 0
    }

    /// The DER form of a signature: 64 bytes are raw `r || s` (converted), anything else is taken as DER.
    static func derSignature(_ signature: [UInt8]) -> [UInt8]? {
        guard signature.count == 64 else { return signature }
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return CertificateReader.der(of: sig, encode: i2d_ECDSA_SIG)
    }

    static func ecdsaVerifies(_ payload: [UInt8], _ der: [UInt8], _ key: PublicKey) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, key.pkey) == 1 else { return false }
        return der.withUnsafeBufferPointer { s in
            payload.withUnsafeBufferPointer { d in EVP_DigestVerify(ctx, s.baseAddress, s.count, d.baseAddress, d.count) == 1 }
        }
    }

    /// An ECDSA P-256 public key read from a PEM `PUBLIC KEY` file.
    public final class PublicKey: @unchecked Sendable {
        let pkey: OpaquePointer

        /// Reads the key; the error names the problem (not PEM, not EC P-256).
        public init(pem bytes: [UInt8], name: String) throws(ProbeError) {
            guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
                throw ProbeError.openSSL("\(name): cannot allocate a buffer")
            }
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
                throw ProbeError.openSSL("\(name): no PEM public key (-----BEGIN PUBLIC KEY-----) in the file")
            }
            let type = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "?"
            let bits = EVP_PKEY_get_bits(key)
            // 256 bits is not enough: secp256k1 is 256 bits too; PinGuard's keys are P-256 (prime256v1).
            var group = [CChar](repeating: 0, count: 64)
            var groupLength = 0
            let named = EVP_PKEY_get_utf8_string_param(key, "group", &group, group.count, &groupLength) == 1
            let curve = named ? cText(group) : "?"
            guard type == "EC", bits == 256, curve == "prime256v1" || curve == "P-256" else {
                EVP_PKEY_free(key)
                throw ProbeError("\(name): a \(type)-\(bits)\(type == "EC" ? " (\(curve))" : "") key, not an ECDSA P-256 key")
            }
            pkey = key
        }

        deinit { EVP_PKEY_free(pkey) }
    }
}
