import Foundation
import PinGuardDemo

/// `SignedCertificateTimestampList`s for a certificate's TLS extension, and the `openssl s_server
/// -serverinfo` file that serves one.
public enum TestSCTList {
    /// TLS extension type `signed_certificate_timestamp`.
    public static let extensionType: UInt64 = 0x0012

    /// The TLS-encoded list of already encoded SCTs.
    public static func encode(_ scts: [[UInt8]]) -> [UInt8] {
        TLSBytes.vector(scts.flatMap { TLSBytes.vector($0, lengthWidth: 2) }, lengthWidth: 2)
    }

    /// A list of SCTs signed over the final `certificate` (`x509_entry`), as the TLS extension carries them.
    public static func overCertificate(_ certificate: DemoCertificate, scts: [TestSCT]) throws -> [UInt8] {
        let entry = SCTSignedEntry.certificate(der: certificate.der)
        return encode(try scts.map { try $0.signed(over: entry) })
    }

    /// A list whose length prefix promises more bytes than follow: no SCT of it parses.
    public static let malformed: [UInt8] = [0x00, 0x40, 0x00, 0x3e, 0x00, 0x01, 0x02]

    /// A serverinfo file (PEM, version 2) that makes `openssl s_server -serverinfo FILE` send `list` in the
    /// `signed_certificate_timestamp` extension to a client that asks: in the ServerHello under TLS 1.2
    /// and in the leaf's CertificateEntry under TLS 1.3.
    public static func serverInfoPEM(_ list: [UInt8]) -> String {
        // SSL_EXT_CLIENT_HELLO | SSL_EXT_TLS1_2_SERVER_HELLO | SSL_EXT_TLS1_3_CERTIFICATE
        let context: UInt64 = 0x0080 | 0x0100 | 0x1000
        let body = TLSBytes.integer(context, width: 4) + TLSBytes.integer(extensionType, width: 2)
            + TLSBytes.vector(list, lengthWidth: 2)
        let base64 = Data(body).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN SERVERINFOV2 FOR signed_certificate_timestamp-----\n\(base64)\n"
            + "-----END SERVERINFOV2 FOR signed_certificate_timestamp-----\n"
    }
}
