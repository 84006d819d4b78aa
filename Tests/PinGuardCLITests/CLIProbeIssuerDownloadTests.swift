import Foundation
import PinGuardFetchTestSupport
import PinGuardTestSupport
import XCTest

/// A server that sends its leaf alone: Chrome downloads the intermediate from the leaf's caIssuers URL and trusts
/// the chain. `pinguard probe` downloads it from a real loopback server through the guarded fetcher when
/// `fetch.networks` allows, and says why Chrome rejects when the download fails; `plan` and `lint --chain` download
/// nothing but judge with the copy `serve` downloaded and kept in the state store.
final class CLIProbeIssuerDownloadTests: XCTestCase {
    var authority: AuthorityServer!
    var server: TLSServer!
    var folder: String!
    var pki: GenerationMovePKI!

    override func setUp() async throws {
        authority = try await AuthorityServer()
        pki = try GenerationMovePKI(caIssuers: authority.url("/ye1.cer"))
        authority.route("/ye1.cer", AuthorityServer.Route(body: pki.intermediate.der))
        folder = try TemporaryDirectory.make("pinguard-cli-aia").path
        try pki.leaf.pem.write(toFile: "\(folder!)/leaf.pem", atomically: true, encoding: .utf8)
        try pki.leaf.key.privateKeyPEM.write(toFile: "\(folder!)/leaf.key", atomically: true, encoding: .utf8)
        let stores = try pki.storesJSON(client: "chrome", known: "120-140", roots: ["ye": "105-"])
        try stores.write(toFile: "\(folder!)/stores.json", atomically: true, encoding: .utf8)
        let policy = "name: web\nclient: chrome\nenvironments:\n  prod:\n    default_policy:\n      pins:\n"
            + "        - {type: spki, hash: \"\(pki.keys.ye.spkiSHA256)\"}\n"
        try policy.write(toFile: "\(folder!)/web.yml", atomically: true, encoding: .utf8)
        try "fetch: {networks: [127.0.0.0/8], timeout: 10s}\npolicies: []\ntargets: []\n"
            .write(toFile: "\(folder!)/pinguard.yml", atomically: true, encoding: .utf8)
        server = try TLSServer(certificate: "\(folder!)/leaf.pem", key: "\(folder!)/leaf.key", chain: nil)
    }

    override func tearDown() async throws {
        server.stop()
        await authority.stop()
    }

    func probe(_ extra: [String]) throws -> (status: Int32, path: [String: Any], stderr: String) {
        let run = try PinguardCLI.run(["probe", "\(GenerationMovePKI.host):\(server.port)", "--connect", "127.0.0.1", "--json", "--no-crl",
                                       "--policy", "\(folder!)/web.yml", "--client-stores", "\(folder!)/stores.json"] + extra)
        let evaluation = try ClientPathsCLITests.evaluation(run.stdout, key: "evaluations")
        return (run.status, try XCTUnwrap((evaluation["paths"] as? [[String: Any]])?.first, run.stdout), run.stderr)
    }

    func testChromeTrustsALeafServedAloneOnceProbeDownloadsItsIssuer() throws {
        let run = try probe(["--config", "\(folder!)/pinguard.yml"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.path["verdict"] as? String, "accept", "\(run.path)")
        XCTAssertEqual((run.path["chain"] as? [String])?.count, 3, "leaf, the downloaded intermediate, the root: \(run.path)")
        XCTAssertEqual(authority.requests("/ye1.cer"), 1)
    }

    func testAFailedDownloadIsTheReasonChromeRejects() throws {
        let run = try probe([])
        XCTAssertEqual(run.status, 1)
        let reason = run.path["trust_error"] as? String ?? ""
        XCTAssertTrue(reason.contains(authority.url("/ye1.cer")) && reason.contains("which failed"), reason)
        XCTAssertTrue(run.stderr.contains("fetch.networks"), run.stderr)
        XCTAssertEqual(authority.totalRequests, 0, "loopback is never asked without fetch.networks")
    }

    func testPlanAndLintJudgeWithTheIssuerServeKeptAndDownloadNothing() throws {
        try """
        trust: {client_stores: stores.json}
        fetch: {networks: [127.0.0.0/8], timeout: 10s}
        state: {path: state.db}
        policies: [web.yml]
        targets:
          - {host: \(GenerationMovePKI.host), port: \(server.port), connect: 127.0.0.1}
        journal: {enabled: false}
        """.write(toFile: "\(folder!)/served.yml", atomically: true, encoding: .utf8)
        let plan = { () throws -> [String: Any] in
            let run = try PinguardCLI.run(["plan", "--chain", "\(self.folder!)/leaf.pem", "--host", GenerationMovePKI.host, "--format", "json",
                                           "--config", "\(self.folder!)/served.yml"])
            let verdict = try ClientPathsCLITests.evaluation(run.stdout, key: "verdicts")
            return try XCTUnwrap((verdict["paths"] as? [[String: Any]])?.first, run.stdout + run.stderr)
        }
        let lint = { try PinguardCLI.run(["lint", "--config", "\(self.folder!)/served.yml", "--chain", "\(self.folder!)/leaf.pem"]) }
        let before = try plan()
        XCTAssertEqual(before["verdict"] as? String, "reject", "\(before)")
        XCTAssertTrue((before["trust_error"] as? String ?? "").contains("which this offline judgement does not"), "\(before)")
        XCTAssertTrue(try lint().stdout.contains("client-path-rejected"), "lint before serve kept the issuer")

        let once = try PinguardCLI.run(["serve", "--once", "--config", "\(folder!)/served.yml"])
        XCTAssertEqual(authority.requests("/ye1.cer"), 1, once.stderr)
        let after = try plan()
        XCTAssertEqual(after["verdict"] as? String, "accept", "\(after)")
        XCTAssertEqual((after["chain"] as? [String])?.count, 3, "leaf, the intermediate serve downloaded, the root: \(after)")
        let linted = try lint()
        XCTAssertFalse(linted.stdout.contains("client-path-rejected"), linted.stdout)
        XCTAssertEqual(authority.requests("/ye1.cer"), 1, "plan and lint download nothing")
    }
}
