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
    public func sign(_ document: [UInt8]) throws -> [UInt8] {
        guard let md = EVP_MD_CTX_new() else { throw HarnessError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestSignInit(md, nil, EVP_sha256(), nil, key.pointer) == 1 else { throw HarnessError("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(md, nil, &length, document, document.count) == 1 else { throw HarnessError("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(md, &signature, &length, document, document.count) == 1 else { throw HarnessError("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }
}
