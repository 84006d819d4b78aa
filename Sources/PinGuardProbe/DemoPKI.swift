import COpenSSL
import Foundation
import PinGuardCore

/// An in-memory key pair (OpenSSL `EVP_PKEY`, freed on deinit).
public final class DemoKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Key algorithms the demo can generate.
    public enum Kind: Int32, Sendable { case p256 = 0, rsa2048 = 1, ed25519 = 2 }

    /// Generates a fresh key.
    public init(_ kind: Kind = .p256) throws(ProbeError) {
        guard let k = pg_keygen(kind.rawValue) else { throw ProbeError.openSSL("key generation") }
        pointer = k
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo: the key's `spki` pin.
    public var spkiSHA256: String {
        let length = i2d_PUBKEY(pointer, nil)
        var der = [UInt8](repeating: 0, count: Int(max(length, 0)))
        der.withUnsafeMutableBufferPointer { buf in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            _ = i2d_PUBKEY(pointer, &p)
        }
        return CertificateFacts.sha256Base64(der[...])
    }
}

/// An in-memory X.509 certificate (OpenSSL `X509`, freed on deinit).
public final class DemoCertificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The certified key.
    public let key: DemoKey

    init(pointer: OpaquePointer, key: DemoKey) {
        self.pointer = pointer
        self.key = key
    }

    deinit { X509_free(pointer) }

    /// Issues a certificate for `key`, signed by `issuer` (self-signed when nil).
    ///
    /// - Parameters:
    ///   - validFrom: seconds relative to now (negative = in the past).
    ///   - validUntil: seconds relative to now.
    public static func issue(commonName: String, dnsName: String?, key: DemoKey, issuer: DemoCertificate?, isCA: Bool,
                             validFrom: TimeInterval, validUntil: TimeInterval, serial: Int) throws(ProbeError) -> DemoCertificate {
        OpenSSLErrorQueue.clear()
        let signer = issuer?.key ?? key
        let san = dnsName.map { "DNS:\($0)" } ?? ""
        let made = san.withCString { sanPointer in
            pg_make_cert(key.pointer, signer.pointer, issuer?.pointer, commonName, dnsName == nil ? nil : sanPointer,
                         isCA ? 1 : 0, Int(validFrom), Int(validUntil), serial)
        }
        guard let x = made else {
            throw ProbeError.openSSL("issuing \(commonName)")
        }
        return DemoCertificate(pointer: x, key: key)
    }

    /// PEM text.
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = PEM_write_bio_X509(bio, pointer)
        return CertificateFacts.bioString(bio)
    }

    /// Facts as the probe would report them.
    public var facts: ChainCertificate {
        get throws(ProbeError) { try CertificateFacts.facts(of: pointer, depth: 0, source: .served) }
    }
}
