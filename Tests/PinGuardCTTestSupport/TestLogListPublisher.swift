import COpenSSL
import Foundation
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport

/// A log list publisher made in the test: an RSA key that signs a list's exact bytes as Google signs Chrome's
/// `log_list.json` (SHA-256, RSASSA-PKCS1-v1_5), its public half written as `log_list_pubkey.pem` is.
public final class TestLogListPublisher: Sendable {
    /// The signing key.
    public let key: DemoKey

    /// A publisher with a fresh key (RSA 2048 unless `kind` says otherwise).
    public init(_ kind: DemoKey.Kind = .rsa2048) throws {
        key = try DemoKey(kind)
    }

    /// The public key as PEM (`-----BEGIN PUBLIC KEY-----`).
    public var publicKeyPEM: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = PEM_write_bio_PUBKEY(bio, key.pointer)
        return CertificateReader.bioString(bio)
    }

    /// The detached signature over `document` (what `log_list.sig` holds).
    public func sign(_ document: [UInt8]) throws -> [UInt8] { try key.signSHA256(document) }
}

extension DemoKey {
    /// The key's signature over `data` with SHA-256: ECDSA (DER) for an EC key, RSASSA-PKCS1-v1_5 for an RSA
    /// key (OpenSSL's defaults), as CT logs sign SCTs and Google signs Chrome's log list.
    func signSHA256(_ data: [UInt8]) throws -> [UInt8] {
        guard let md = EVP_MD_CTX_new() else { throw HarnessError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestSignInit(md, nil, EVP_sha256(), nil, pointer) == 1 else { throw HarnessError("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(md, nil, &length, data, data.count) == 1 else { throw HarnessError("EVP_DigestSign length") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(md, &signature, &length, data, data.count) == 1 else { throw HarnessError("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }
}
