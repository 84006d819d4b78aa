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
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/policies", withIntermediateDirectories: true)
        let day = 86_400.0
        let rootKey = try DemoKey()
        let root = try DemoCertificate.issue(commonName: "pinguard Demo Root", dnsName: nil, key: rootKey, issuer: nil,
                                             isCA: true, validFrom: -day, validUntil: 3650 * day, serial: 1)
        let intermediate = try DemoCertificate.issue(commonName: "pinguard Demo Intermediate", dnsName: nil, key: try DemoKey(),
                                                     issuer: root, isCA: true, validFrom: -day, validUntil: 1825 * day, serial: 2)
        func leaf(_ host: String, key: DemoKey, days: Double, serial: Int) throws -> DemoCertificate {
            try DemoCertificate.issue(commonName: host, dnsName: host, key: key, issuer: intermediate, isCA: false,
                                      validFrom: -10 * day, validUntil: days * day, serial: serial)
        }
        let domain = "demo.pinguard.test"
        let apiKey = try DemoKey(), spare = try DemoKey(), expiringKey = try DemoKey()
        let oldRotatedKey = try DemoKey(), newRotatedKey = try DemoKey(), backupPrimary = try DemoKey(), backupKey = try DemoKey()
        let endpoints: [(name: String, cert: DemoCertificate)] = [
            ("api", try leaf("api.\(domain)", key: apiKey, days: 90, serial: 10)),
            ("expiring", try leaf("expiring.\(domain)", key: expiringKey, days: 5, serial: 11)),
            ("rotated", try leaf("rotated.\(domain)", key: newRotatedKey, days: 90, serial: 12)),
            ("backup", try leaf("backup.\(domain)", key: backupKey, days: 90, serial: 13)),
        ]
        servers = try endpoints.map { try LoopbackTLSServer(leaf: $0.cert, chain: intermediate) }
        let rootPath = directory + "/demo-root.pem"
        try root.pem.write(toFile: rootPath, atomically: true, encoding: .utf8)
        // The renewal staged for the expiring host, issued after the served certificate, on a new key that no
        // pin of the iOS app covers: the `files:` entry judges it before it is served (pinguard_file_policy_accept
        // 0 for demo-ios-app), and the forecast takes it as the next renewal (key_basis staged).
        let renewal = try DemoCertificate.issue(commonName: "expiring.\(domain)", dnsName: "expiring.\(domain)", key: try DemoKey(),
                                                issuer: intermediate, isCA: false, validFrom: -day, validUntil: 90 * day, serial: 14)
        try fm.createDirectory(atPath: directory + "/staged", withIntermediateDirectories: true)
        try (renewal.pem + intermediate.pem).write(toFile: directory + "/staged/expiring-renewal.pem", atomically: true, encoding: .utf8)

        // One rule per host: its leaf-key pins, primary then backup.
        func rule(_ host: String, _ pins: [(DemoKey, String)]) -> String {
            "      - pattern: \(host).\(domain)\n        policy:\n          pins:\n"
                + pins.map { "            - {type: spki, hash: \"\($0.0.spkiSHA256)\", role: \($0.1), scope: leaf}\n" }.joined()
        }
        let ios = """
        # The demo iOS app: leaf-key pins per host, as TrustKit or PinGuard would ship them.
        name: demo-ios-app
        version: "1.0"
        environments:
          prod:
            policies:

        """ + rule("api", [(apiKey, "primary"), (spare, "backup")]) + rule("expiring", [(expiringKey, "primary")])
            + rule("rotated", [(oldRotatedKey, "primary"), (spare, "backup")])
            + rule("backup", [(backupPrimary, "primary"), (backupKey, "backup")])
        let intermediateSPKI = try intermediate.facts.spkiSHA256
        let android = """
        # The demo Android app pins the issuing CA for the whole domain (network_security_config style).
        name: demo-android-app
        environments:
          prod:
            policies:
              - pattern: "**.\(domain)"
                policy:
                  pins:
                    - {type: ca, hash: "\(intermediateSPKI)", role: primary}
                    - {type: spki, hash: "\(spare.spkiSHA256)", role: backup}

        """
        try ios.write(toFile: directory + "/policies/demo-ios-app.yml", atomically: true, encoding: .utf8)
        try android.write(toFile: directory + "/policies/demo-android-app.yml", atomically: true, encoding: .utf8)
        var config = """
        # Generated by `pinguard serve` without --config: the built-in demo.
        listen: "\(listen)"
        interval: 30s
        timeout: 5s
        concurrency: 8
        expiry_warning_days: 30
        trust: {ca_file: demo-root.pem}
        # Served chains, renewals and key ages are remembered here (kept across restarts).
        state: {path: state.db}
        policies: ["policies/*.yml"]
        # The renewal staged for the expiring host, judged before it is served.
        files:
          - {path: staged/expiring-renewal.pem, host: expiring.\(domain)}
        # GET /probe?target=HOST:PORT may probe demo names on loopback, on the demo's ports (loopback and
        # ports other than 443 must be listed explicitly).
        probe_allow: {hosts: ["**.\(domain)"], networks: ["127.0.0.0/8", "::1"], ports: [\(servers.map { String($0.port) }.joined(separator: ", "))]}
        targets:

        """
        for (i, e) in endpoints.enumerated() {
            config += "  - {host: \(e.name).\(domain), port: \(servers[i].port), connect: 127.0.0.1, name: demo-\(e.name)}\n"
        }
        configPath = directory + "/pinguard.yml"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        self.directory = directory
    }

    /// Stops the endpoints.
    public func stop() { servers.forEach { $0.stop() } }
}
