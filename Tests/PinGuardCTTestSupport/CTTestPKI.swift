import Foundation
import PinGuardDemo
import PinGuardTestSupport

/// A throw-away PKI made in-process for CT tests: a root, an intermediate that issues the leaves, and a
/// folder for the files `openssl s_server` and the CLI read.
public final class CTTestPKI: Sendable {
    /// The root (`caFile` holds it).
    public let root: DemoCertificate
    /// The intermediate that issues leaves.
    public let intermediate: DemoCertificate
    /// The folder the files are written to.
    public let directory: URL
    /// The root as a PEM file: the trust anchor for a prober or `--ca-file`.
    public let caFile: String

    /// A fresh root and intermediate (P-256), valid from a day ago for ten years.
    public init() throws {
        directory = try TemporaryDirectory.make("pinguard-ct-pki")
        root = try DemoCertificate.issue(commonName: "pinguard CT Test Root", dnsName: nil, key: try DemoKey(), issuer: nil,
                                         isCA: true, validFrom: -86_400, validUntil: 3650 * 86_400, serial: 1)
        intermediate = try DemoCertificate.issue(commonName: "pinguard CT Test Intermediate", dnsName: nil, key: try DemoKey(),
                                                 issuer: root, isCA: true, validFrom: -86_400, validUntil: 3650 * 86_400, serial: 2)
        caFile = directory.appendingPathComponent("root.pem").path
        try root.pem.write(toFile: caFile, atomically: true, encoding: .utf8)
    }

    /// Writes `text` to `name` in the folder and returns its path.
    public func write(_ text: String, to name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts `openssl s_server` serving `leaf` (issued by the intermediate) and the intermediate, sending
    /// `tlsSCTs` (a TLS-encoded SCT list) in the `signed_certificate_timestamp` extension and `ocspSCTs` in
    /// a stapled OCSP response, when given.
    public func server(leaf: DemoCertificate, tlsSCTs: [UInt8]? = nil, ocspSCTs: [UInt8]? = nil,
                       extraArguments: [String] = []) throws -> TLSServer {
        let name = UUID().uuidString.prefix(8)
        let certificate = try write(leaf.pem, to: "\(name).pem")
        let key = try write(leaf.key.privateKeyPEM, to: "\(name).key")
        let chain = try write(intermediate.pem, to: "\(name)-chain.pem")
        var arguments = extraArguments
        if let tlsSCTs { arguments += ["-serverinfo", try write(TestSCTList.serverInfoPEM(tlsSCTs), to: "\(name).serverinfo")] }
        if let ocspSCTs {
            let path = directory.appendingPathComponent("\(name).ocsp").path
            try Data(try TestOCSPStaple.response(for: leaf, issuer: intermediate, list: ocspSCTs)).write(to: URL(fileURLWithPath: path))
            arguments += ["-status_file", path]
        }
        return try TLSServer(certificate: certificate, key: key, chain: chain, extraArguments: arguments)
    }
}
