import Foundation
import PinGuardDemo

/// Certificates for an HTTPS endpoint on 127.0.0.1, made in-process at test time: a server certificate (SAN
/// IP:127.0.0.1 and localhost) under one CA, a client certificate under a client CA, and a client certificate
/// under an unrelated CA that must be refused.
public struct WebPKI: Sendable {
    /// Folder of the files.
    public let directory: URL

    /// The CA that issued the server certificate (for `curl --cacert`, Prometheus' `ca_file`).
    public var serverCA: String { path("server-ca.pem") }
    /// The server certificate and its key.
    public var serverCertificate: String { path("server.pem") }
    public var serverKey: String { path("server.key") }
    /// The CA client certificates must chain to (`client_ca_file`).
    public var clientCA: String { path("client-ca.pem") }
    /// A client certificate under `clientCA`, and its key.
    public var clientCertificate: String { path("client.pem") }
    public var clientKey: String { path("client.key") }
    /// A client certificate under another CA, and its key.
    public var strangerCertificate: String { path("stranger.pem") }
    public var strangerKey: String { path("stranger.key") }

    /// A path in `directory`.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Generates every file in a new temporary folder.
    public static func make() throws -> WebPKI {
        let pki = WebPKI(directory: try TemporaryDirectory.make("pinguard-web-pki"))
        func write(_ c: DemoCertificate, _ name: String) throws {
            try c.pem.write(toFile: pki.path("\(name).pem"), atomically: true, encoding: .utf8)
            try c.key.privateKeyPEM.write(toFile: pki.path("\(name).key"), atomically: true, encoding: .utf8)
        }
        func ca(_ name: String) throws -> DemoCertificate {
            let c = try DemoCertificate.issue(commonName: name, dnsName: nil, key: try DemoKey(), issuer: nil, isCA: true,
                                              validFrom: 0, validUntil: 2 * 86_400, serial: 1, organization: nil)
            try write(c, name)
            return c
        }
        func leaf(_ name: String, _ issuer: DemoCertificate, cn: String, usage: String, san: String? = nil) throws {
            try write(try DemoCertificate.issue(commonName: cn, dnsName: nil, key: try DemoKey(), issuer: issuer, isCA: false,
                                                validFrom: 0, validUntil: 2 * 86_400, serial: 2, organization: nil,
                                                extendedKeyUsage: usage, subjectAltName: san), name)
        }
        try leaf("server", try ca("server-ca"), cn: "localhost", usage: "serverAuth", san: "IP:127.0.0.1,DNS:localhost")
        try leaf("client", try ca("client-ca"), cn: "prometheus", usage: "clientAuth")
        try leaf("stranger", try ca("stranger-ca"), cn: "stranger", usage: "clientAuth")
        return pki
    }
}
