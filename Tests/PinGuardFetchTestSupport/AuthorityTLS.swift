import Foundation
import NIOSSL
import PinGuardDemo

/// A CA made at test time and the server identity it issued for 127.0.0.1 and `localhost`, with the CA
/// written to a file to use as `fetch.ca_file`.
public struct AuthorityTLS: Sendable {
    /// The test CA's certificate.
    public let root: DemoCertificate
    /// The server's certificate, issued by `root`.
    public let leaf: DemoCertificate
    /// A file holding `root` in PEM.
    public let caFile: String

    /// Makes a new CA and server identity; the CA file goes into a fresh temporary folder.
    public init() throws {
        let rootKey = try DemoKey(.p256)
        root = try DemoCertificate.issue(commonName: "pinguard test authority CA", dnsName: nil, key: rootKey, issuer: nil,
                                         isCA: true, validFrom: -3600, validUntil: 86_400, serial: 1)
        leaf = try DemoCertificate.issue(commonName: "authority.pinguard.test", dnsName: nil, key: try DemoKey(.p256), issuer: root,
                                         isCA: false, validFrom: -3600, validUntil: 86_400, serial: 2, extendedKeyUsage: "serverAuth",
                                         subjectAltName: "IP:127.0.0.1,DNS:localhost,DNS:authority.pinguard.test")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-authority-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        caFile = folder.appendingPathComponent("ca.pem").path
        try root.pem.write(toFile: caFile, atomically: true, encoding: .utf8)
    }

    /// The server side: the leaf and its key.
    func serverConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(leaf.pem.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(leaf.key.privateKeyPEM.utf8), format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    }
}
