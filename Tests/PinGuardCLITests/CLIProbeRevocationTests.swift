import Foundation
import PinGuardDemo
import PinGuardFetchTestSupport
import PinGuardTestSupport
import XCTest

/// `pinguard probe --json` shows each certificate's revocation from its CRLs, fetched from a real loopback
/// server when `fetch.networks` of `--config` allows it, and never reaches loopback otherwise.
final class CLIProbeRevocationTests: XCTestCase {
    var authority: AuthorityServer!
    var pki: RevocationPKI!
    var server: LoopbackTLSServer!
    var dir: URL!

    override func setUp() async throws {
        authority = try await AuthorityServer()
        pki = try RevocationPKI(base: authority.url(""))
        server = try LoopbackTLSServer(leaf: pki.leaf("revoked"), chain: pki.intermediate)
        dir = try TemporaryDirectory.make("pinguard-cli-crl")
        try pki.root.pem.write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        authority.route("/int.crl", AuthorityServer.Route(body: try DemoCRL.make(
            issuer: pki.intermediate, revoked: [.init(serial: RevocationPKI.serial(ofLeafAt: 0), reason: .keyCompromise)])))
        authority.route("/root.crl", AuthorityServer.Route(body: try DemoCRL.make(issuer: pki.root)))
    }

    override func tearDown() async throws {
        server.stop()
        await authority.stop()
    }

    func probe(config: String?) throws -> (json: [String: Any], stderr: String) {
        var args = ["probe", "revoked.pinguard.test:\(server.port)", "--connect", "127.0.0.1", "--json"]
        if let config {
            let path = dir.appendingPathComponent("pinguard.yml")
            try config.write(to: path, atomically: true, encoding: .utf8)
            args += ["--config", path.path]
        } else {
            args += ["--ca-file", dir.appendingPathComponent("root.pem").path]
        }
        let run = try PinguardCLI.run(args)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.description)
        return (json, run.stderr)
    }

    func states(_ json: [String: Any]) throws -> [[String: Any]] {
        try XCTUnwrap(json["revocation"] as? [[String: Any]])
    }

    func testProbeJSONShowsTheRevokedLeafAndTheIntermediatesState() throws {
        let (json, _) = try probe(config: "trust: {ca_file: root.pem}\nfetch: {networks: [127.0.0.0/8], timeout: 10s}\npolicies: []\ntargets: []\n")
        let states = try states(json)
        XCTAssertEqual(states.map { $0["depth"] as? Int }, [0, 1])
        XCTAssertEqual(states.map { $0["state"] as? String }, ["revoked", "not_revoked"])
        XCTAssertEqual(states[0]["reason"] as? String, "keyCompromise")
        XCTAssertEqual(states[0]["url"] as? String, pki.intermediateCRLURL)
        XCTAssertEqual((json["chain"] as? [[String: Any]])?.first?["crl_distribution_points"] as? [String], [pki.intermediateCRLURL])
        XCTAssertEqual(authority.requests("/int.crl"), 1)
    }

    func testWithoutFetchNetworksLoopbackIsNeverAskedAndTheStateIsUnknown() throws {
        let (json, stderr) = try probe(config: nil)
        XCTAssertEqual(try states(json).map { $0["unknown_reason"] as? String }, ["fetch_failed", "fetch_failed"])
        XCTAssertTrue(stderr.contains("fetch.networks"), stderr)
        XCTAssertEqual(authority.totalRequests, 0)
    }
}
