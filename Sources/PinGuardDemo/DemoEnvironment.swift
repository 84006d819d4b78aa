import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// The built-in demo: a generated PKI, four loopback TLS endpoints and a config with policies that pin them.
///
/// - `api`: healthy, leaf pin plus a reserve backup pin.
/// - `expiring`: leaf expires in 5 days and no reserve pin.
/// - `rotated`: the server's key rotated away from its pins (a pinned client rejects).
/// - `backup`: the server runs on the key of its backup pin (a rotation happened).
public final class DemoEnvironment: Sendable {
    /// Folder holding `pinguard.yml`, `policies/` and `demo-root.pem`.
    public let directory: String
    /// Path of the generated config.
    public let configPath: String
    private let servers: [LoopbackTLSServer]

    /// Generates everything under `directory` and starts the endpoints; `listen` goes into the config.
    public init(directory: String, listen: String = ":9477") throws {
        try FileManager.default.createDirectory(atPath: directory + "/policies", withIntermediateDirectories: true)
        let pki = try DemoPKI()
        servers = try pki.endpoints.map { try LoopbackTLSServer(leaf: $0.cert, chain: pki.intermediate) }
        try Self.writeCertificates(pki, in: directory)
        try Self.writePolicies(pki, in: directory)
        configPath = directory + "/pinguard.yml"
        let endpoints = zip(pki.endpoints, servers).map { (name: $0.name, port: $1.port) }
        try Self.config(listen: listen, endpoints: endpoints).write(toFile: configPath, atomically: true, encoding: .utf8)
        self.directory = directory
    }

    /// Stops the endpoints.
    public func stop() { servers.forEach { $0.stop() } }
}
