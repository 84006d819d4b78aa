import COpenSSL
import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// An in-memory X.509 certificate (OpenSSL `X509`, freed on deinit).
public final class DemoCertificate: @unchecked Sendable {
    package let pointer: OpaquePointer
    /// The certified key.
    public let key: DemoKey

    /// Takes ownership of `pointer` (an `X509`), a certificate for `key`.
    package init(pointer: OpaquePointer, key: DemoKey) {
        self.pointer = pointer
        self.key = key
    }

    deinit { X509_free(pointer) }

    /// Issues a certificate for `key`, signed by `issuer` (self-signed when nil).
    ///
    /// - Parameters:
    ///   - dnsName: the subject alternative name `DNS:NAME`; `subjectAltName` replaces it with any value
    ///     OpenSSL's configuration syntax takes (`IP:127.0.0.1,DNS:localhost`).
    ///   - validFrom: seconds relative to now (negative = in the past).
    ///   - validUntil: seconds relative to now.
    ///   - organization: the subject's `O`, none when nil.
    ///   - extendedKeyUsage: e.g. `serverAuth`, none when nil.
    ///   - authorityKeyID: whether an issued certificate names its issuer's key identifier (RFC 5280 §4.2.1.1).
    ///   - crlDistributionPoint: the URI of a CRL distribution point, none when nil.
    ///   - pathLength: a CA's `pathLenConstraint` (how many intermediates may follow it), none when nil.
    ///   - caIssuers: the URI where the issuer's certificate can be downloaded (authority information access).
    public static func issue(commonName: String, dnsName: String?, key: DemoKey, issuer: DemoCertificate?, isCA: Bool,
                             validFrom: TimeInterval, validUntil: TimeInterval, serial: Int, organization: String? = "pinguard demo",
                             extendedKeyUsage: String? = nil, subjectAltName: String? = nil,
                             authorityKeyID: Bool = false, crlDistributionPoint: String? = nil,
                             pathLength: Int? = nil, caIssuers: String? = nil) throws(ProbeError) -> DemoCertificate {
        OpenSSLErrorQueue.clear()
        let signer = issuer?.key ?? key
        guard let x = CertificateBuilder.make(key: key.pointer, issuerKey: signer.pointer, issuer: issuer?.pointer, commonName: commonName,
                                              subjectAltName: subjectAltName ?? dnsName.map { "DNS:\($0)" }, isCA: isCA,
                                              notBefore: Int(validFrom), notAfter: Int(validUntil), serial: serial,
                                              organization: organization, extendedKeyUsage: extendedKeyUsage,
                                              authorityKeyID: authorityKeyID, crlDistributionPoint: crlDistributionPoint,
                                              pathLength: pathLength, caIssuers: caIssuers) else {
            throw ProbeError.openSSL("issuing \(commonName)")
        }
        return DemoCertificate(pointer: x, key: key)
    }

    /// PEM text.
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = PEM_write_bio_X509(bio, pointer)
        return CertificateReader.bioString(bio)
    }

    /// DER bytes.
    public var der: [UInt8] { CertificateReader.der(of: pointer, encode: i2d_X509) ?? [] }

    /// Facts as the probe would report them.
    public var facts: ChainCertificate {
        get throws(ProbeError) { try CertificateReader.facts(of: pointer, depth: 0, source: .served) }
    }
}
