import COpenSSL
import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// An in-memory key pair (OpenSSL `EVP_PKEY`, freed on deinit).
public final class DemoKey: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Key algorithms the demo (and the test PKI) can generate.
    public enum Kind: Int32, Sendable { case p256 = 0, rsa2048 = 1, ed25519 = 2, p384 = 3, rsaPSS2048 = 4 }

    /// Generates a fresh key.
    public init(_ kind: Kind = .p256) throws(ProbeError) {
        guard let k = pg_keygen(kind.rawValue) else { throw ProbeError.openSSL("key generation") }
        pointer = k
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo: the key's `spki` pin.
    public var spkiSHA256: String {
        let der = CertificateReader.publicKeyDER(pointer) ?? []
        return CertificateReader.sha256Base64(der[...])
    }

    /// The DER SubjectPublicKeyInfo of the public half.
    public var publicKeyDER: [UInt8] { CertificateReader.publicKeyDER(pointer) ?? [] }

    /// The private key as PKCS#8 PEM (unencrypted), for servers started from files.
    public var privateKeyPEM: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        return CertificateReader.bioString(bio)
    }
}
