import Foundation
import PinGuardTestSupport
import XCTest

/// mTLS client identities through the built binary: `check-config` loads them, `probe --client-*` sends them to a
/// real nginx with `ssl_verify_client on` (the probe's handling of them in-process is MTLSClientIdentityTests).
final class CLIClientIdentityTests: XCTestCase {
    struct World: Sendable {
        let files: ClientIdentityFiles
        let farm: TLSServerFarm
    }

    private static let started: Result<World, HarnessError> = {
        do {
            let pki = try WebPKI.make()
            let files = try ClientIdentityFiles.make(pki: pki)
            let farm = try TLSServerFarm(sites: [TLSSite(serverName: "localhost", chainFile: pki.serverCertificate,
                                                         keyFile: pki.serverKey, clientCAFile: pki.clientCA)], ipv6: false)
            return .success(World(files: files, farm: farm))
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    func world() throws -> World { try Self.started.get() }

    /// `check-config` loads the identities: a wrong password is a configuration error (exit 2) naming target and file.
    func testCheckConfigRejectsAWrongPKCS12Password() throws {
        let w = try world()
        let dir = try TemporaryDirectory.make("pinguard-mtls-config")
        let config = dir.appendingPathComponent("pinguard.yml")
        try """
        policies: []
        targets:
          - host: localhost
            name: api
            client_pkcs12: \(w.files.pkcs12)
            client_pkcs12_password_file: \(w.files.wrongPasswordFile)
        """.write(to: config, atomically: true, encoding: .utf8)
        let bad = try PinguardCLI.run(["check-config", config.path])
        XCTAssertEqual(bad.status, 2, "\(bad)")
        XCTAssertTrue(bad.stderr.contains("target \"api\": client_pkcs12 \(w.files.pkcs12): wrong password"), bad.stderr)
        try """
        policies: []
        targets:
          - host: localhost
            client_pkcs12: \(w.files.pkcs12)
            client_pkcs12_password_file: \(w.files.passwordFile)
          - host: localhost
            port: 8443
            client_cert: missing.pem
        """.write(to: config, atomically: true, encoding: .utf8)
        let missing = try PinguardCLI.run(["check-config", config.path])
        XCTAssertEqual(missing.status, 2, "\(missing)")
        XCTAssertTrue(missing.stderr.contains("pinguard.yml:8: targets[1].client_cert: cannot read \(dir.path)/missing.pem"), missing.stderr)
    }

    /// `pinguard probe --client-*`: the identity options of the command line, shown in the table and the JSON.
    func testProbeCommandSendsTheIdentityItIsGiven() throws {
        let w = try world()
        let base = ["probe", "localhost:\(w.farm.port)", "--connect", "127.0.0.1", "--ca-file", w.files.pki.serverCA, "--timeout", "5s"]
        let without = try PinguardCLI.run(base)
        XCTAssertEqual(without.status, 0, "\(without)")
        XCTAssertTrue(without.stdout.contains("client certificate: requested by the server, NONE sent"), without.stdout)
        let with = try PinguardCLI.run(base + ["--client-pkcs12", w.files.pkcs12, "--client-pkcs12-password-file", w.files.passwordFile, "--json"])
        XCTAssertEqual(with.status, 0, "\(with)")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(with.stdout.utf8)) as? [String: Any])
        let node = try XCTUnwrap((object["addresses"] as? [[String: Any]])?.first, with.stdout)
        let auth = try XCTUnwrap(node["client_auth"] as? [String: Any], with.stdout)
        XCTAssertEqual(auth["requested"] as? Bool, true)
        XCTAssertEqual(auth["presented"] as? Bool, true)
        XCTAssertEqual(auth["certificate_subject"] as? String, "CN=prometheus")
        let wrong = try PinguardCLI.run(base + ["--client-pkcs12", w.files.pkcs12, "--client-pkcs12-password-file", w.files.wrongPasswordFile])
        XCTAssertEqual(wrong.status, 2, "\(wrong)")
        XCTAssertTrue(wrong.stderr.contains("wrong password"), wrong.stderr)
    }
}
