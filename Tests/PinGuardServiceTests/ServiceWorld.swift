import Foundation
import PinGuardTestSupport
import XCTest

/// The real TLS endpoints and pins the service tests share, started once per test process on first use.
///
/// One nginx on loopback serves, by SNI, four hosts of the test PKI that a pinned app would meet:
/// - `valid.pinguard.test` — healthy: its leaf key is pinned, with a reserve pin to rotate to;
/// - `expiring.pinguard.test` — the leaf expires in 5 days and its only pin is that leaf: nothing to rotate to;
/// - `rotated.pinguard.test` — the key was rotated away from its pins: a strict pinned client rejects;
/// - `backup.pinguard.test` — serves the key of its backup pin: a rotation already happened.
/// Unknown names get the `valid` site (so `uncovered.example` fails hostname verification).
final class ServiceWorld: Sendable {
    let pki: TestPKI
    let farm: TLSServerFarm
    /// SPKI pins (base64 SHA-256), computed with the openssl command line.
    let validLeafPin: String
    let expiringLeafPin: String
    let rotatedLeafPin: String
    let backupLeafPin: String
    let reservePin: String
    let intermediatePin: String
    /// The key the `rotated` host served before its rotation (pinned, no longer served).
    let staleRotatedPin: String
    /// The primary key of the `backup` host before it moved to its backup key.
    let staleBackupPrimaryPin: String

    private static let started: Result<ServiceWorld, HarnessError> = {
        do { return .success(try ServiceWorld()) } catch let e as HarnessError { return .failure(e) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The shared endpoints for a test that runs pinguard itself (`ServeProcess` `.direct`, `PinguardCLI`) with
    /// `connect:` addresses on loopback and no journal: nginx and the binary, no root. Skips the test when
    /// they are missing, throws when the servers could not start.
    static func direct() throws -> ServiceWorld {
        if let missing = missingDirectRequirement { throw XCTSkip(missing) }
        return try started.get()
    }

    /// The shared endpoints for a test that needs what only the `scripts/with-journald.sh` wrapper gives (a
    /// private journald, no journal socket at all, a private /etc/hosts or /etc/resolv.conf), and so root.
    /// `need` says what the test needs it for; the skip message starts with it.
    static func privileged(for need: String) throws -> ServiceWorld {
        if let missing = ServeProcess.missingRequirement { throw XCTSkip("\(need): \(missing)") }
        return try started.get()
    }

    /// The shared endpoints for a direct test whose names resolve through a private /etc/hosts (bind-mounted
    /// in a user namespace, `ServeProcess.missingPrivateNamesRequirement`); skips when the host cannot.
    static func resolving() throws -> ServiceWorld {
        if let missing = missingDirectRequirement ?? ServeProcess.missingPrivateNamesRequirement { throw XCTSkip(missing) }
        return try started.get()
    }

    /// What a `direct()` test needs and this host lacks; nil when nothing.
    static var missingDirectRequirement: String? {
        TLSServerFarm.nginxPath == nil ? "nginx is not installed" : ServeProcess.missingDirectRequirement
    }

    private init() throws {
        let pki = try TestPKI.shared()
        self.pki = pki
        farm = try TLSServerFarm(sites: ["valid", "expiring", "rotated", "backup"].map { TLSSite.leaf($0, in: pki) })
        validLeafPin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("valid"))
        expiringLeafPin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("expiring"))
        rotatedLeafPin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("rotated"))
        backupLeafPin = try OpenSSLTool.spkiSHA256(certificate: pki.certificate("backup"))
        reservePin = try OpenSSLTool.spkiSHA256(privateKey: pki.reserveKey)
        intermediatePin = try OpenSSLTool.spkiSHA256(certificate: pki.intermediate)
        staleRotatedPin = try OpenSSLTool.spkiSHA256(privateKey: pki.key("p384"))
        staleBackupPrimaryPin = try OpenSSLTool.spkiSHA256(privateKey: pki.key("rsa"))
    }

    // MARK: - Targets

    /// One `targets:` entry of a config.
    struct Target {
        var name: String
        var host: String
        var port: Int
        var policySets: [String]? = nil
        /// The address to dial; nil: resolve `host` (every address, as a client would).
        var connect: String? = "127.0.0.1"

        var yaml: String {
            var y = "  - {name: \(name), host: \(host), port: \(port)"
            if let connect { y += ", connect: \(connect)" }
            if let sets = policySets { y += ", policy_sets: [\(sets.joined(separator: ", "))]" }
            return y + "}\n"
        }
    }

    var healthy: Target { Target(name: "healthy", host: "valid.pinguard.test", port: farm.port) }
    var expiring: Target { Target(name: "expiring", host: "expiring.pinguard.test", port: farm.port) }
    var rotated: Target { Target(name: "rotated", host: "rotated.pinguard.test", port: farm.port) }
    var backup: Target { Target(name: "backup", host: "backup.pinguard.test", port: farm.port) }
    /// Covered by the Android set's `**.pinguard.test`, but nothing listens: the probe fails.
    func down(port: Int = LoopbackPorts.closed()) -> Target { Target(name: "down", host: "down.pinguard.test", port: port) }
    /// No policy set covers this host; nginx serves its default site, whose name does not match.
    var uncovered: Target { Target(name: "uncovered", host: "uncovered.example", port: farm.port) }

    // MARK: - Policies and configs

    /// The iOS app: leaf-key pins per host.
    var iosPolicy: String {
        PolicyYAML.policySet(name: "ios-app", rules: [
            HostPolicySpec(pattern: "valid.pinguard.test", pins: [.spki(validLeafPin, role: "primary", scope: "leaf"),
                                                                  .spki(reservePin, role: "backup")],
                           expires: "2099-12-31"),
            HostPolicySpec(pattern: "expiring.pinguard.test", pins: [.spki(expiringLeafPin, role: "primary", scope: "leaf")]),
            HostPolicySpec(pattern: "rotated.pinguard.test", pins: [.spki(staleRotatedPin, role: "primary", scope: "leaf"),
                                                                    .spki(reservePin, role: "backup")]),
            HostPolicySpec(pattern: "backup.pinguard.test", pins: [.spki(staleBackupPrimaryPin, role: "primary", scope: "leaf"),
                                                                   .spki(backupLeafPin, role: "backup")]),
        ])
    }

    /// The Android app: the issuing CA for the whole domain, plus a reserve key.
    var androidPolicy: String {
        PolicyYAML.policySet(name: "android-app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [PinSpec(type: "ca", hash: intermediatePin, role: "primary"),
                                                               .spki(reservePin, role: "backup")]),
        ])
    }

    /// Writes `pinguard.yml` and both policy files into `directory`; returns the config's path.
    /// `listen: 127.0.0.1:0`: the kernel picks a free port and pinguard prints it in its serving line.
    /// `expiryWarningDays` is also the window of the expiring-pin-set lint; `policies` are the config's globs.
    /// `journal` is off unless a test asks for it: a serve outside the wrapper's namespace would write to the
    /// host's journal.
    @discardableResult
    func writeConfig(in directory: URL, targets: [Target], interval: String = "2s", timeout: String = "2s",
                     concurrency: Int = 4, journal: Bool = false, expiryWarningDays: Int = 30,
                     policies: [String] = ["policies/*.yml"], file: String = "pinguard.yml") throws -> String {
        try PolicyYAML.write(iosPolicy, to: directory, as: "policies/ios-app.yml")
        try PolicyYAML.write(androidPolicy, to: directory, as: "policies/android-app.yml")
        var y = """
        listen: "127.0.0.1:0"
        interval: \(interval)
        timeout: \(timeout)
        concurrency: \(concurrency)
        environment: prod
        expiry_warning_days: \(expiryWarningDays)
        trust: {ca_file: "\(pki.caBundle)"}
        policies: [\(policies.map { "\"\($0)\"" }.joined(separator: ", "))]
        journal: {enabled: \(journal)}
        targets:

        """
        for t in targets { y += t.yaml }
        return try PolicyYAML.write(y, to: directory, as: file)
    }
}
