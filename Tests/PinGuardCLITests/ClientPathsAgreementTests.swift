import Foundation
import PinGuardDemo
import PinGuardTestSupport
import XCTest

/// One verifier: the same served chain gets the same per-client verdict from `probe`, `plan`, `serve --once` and
/// `lint --chain`, through one configuration.
final class ClientPathsAgreementTests: XCTestCase {
    func testProbePlanServeAndLintAgreeOnEveryChain() throws {
        let setup = try ClientPathsCLITests.Setup(daysAhead: 20)
        let expiredCross = try GenerationMovePKI(crossSignExpired: true)
        let folder = setup.folder
        let pki = setup.pki
        // X2-by-X1 expired: the same names, another PKI; its stores file replaces the first for that chain.
        let chains: [(name: String, pki: GenerationMovePKI, certificates: [DemoCertificate])] = [
            ("full", pki, pki.served),
            ("short", pki, [pki.leaf, pki.intermediate]),
            ("self-signed-root", pki, [pki.leaf, pki.intermediate, pki.ye]),
            ("no-cross-sign", pki, [pki.leaf, pki.intermediate, pki.yeByX2]),
            ("expired-cross-sign", expiredCross, expiredCross.served),
        ]
        for chain in chains {
            let dir = "\(folder)/\(chain.name)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try chain.pki.storesJSON(client: "android", known: "24-37", roots: ["x1": "25-", "x2": "34-"])
                .write(toFile: "\(dir)/stores.json", atomically: true, encoding: .utf8)
            try chain.pki.androidPolicy(clientVersions: "24-37").write(toFile: "\(dir)/app.yml", atomically: true, encoding: .utf8)
            try chain.certificates[0].pem.write(toFile: "\(dir)/leaf.pem", atomically: true, encoding: .utf8)
            try chain.certificates[0].key.privateKeyPEM.write(toFile: "\(dir)/leaf.key", atomically: true, encoding: .utf8)
            try chain.certificates.dropFirst().map(\.pem).joined().write(toFile: "\(dir)/chain.pem", atomically: true, encoding: .utf8)
            try chain.certificates.map(\.pem).joined().write(toFile: "\(dir)/candidate.pem", atomically: true, encoding: .utf8)
            let server = try TLSServer(certificate: "\(dir)/leaf.pem", key: "\(dir)/leaf.key",
                                       chain: chain.certificates.count > 1 ? "\(dir)/chain.pem" : nil)
            defer { server.stop() }
            try """
            trust: {client_stores: stores.json}
            policies: [app.yml]
            targets:
              - {host: \(GenerationMovePKI.host), port: \(server.port), connect: 127.0.0.1}
            journal: {enabled: false}
            """.write(toFile: "\(dir)/pinguard.yml", atomically: true, encoding: .utf8)
            try assertAgreement(chain.name, dir: dir, port: server.port)
        }
    }

    func assertAgreement(_ name: String, dir: String, port: Int) throws {
        let probe = try PinguardCLI.run(["probe", "\(GenerationMovePKI.host):\(port)", "--connect", "127.0.0.1", "--json", "--no-crl",
                                         "--config", "\(dir)/pinguard.yml"])
        let probed = try ClientPathsCLITests.evaluation(probe.stdout, key: "evaluations")
        XCTAssertFalse(probe.stdout.contains("journalctl"), "\(name): a command's advice never points at a journal it did not write")
        let plan = try PinguardCLI.run(["plan", "--chain", "\(dir)/candidate.pem", "--host", GenerationMovePKI.host, "--format", "json",
                                        "--config", "\(dir)/pinguard.yml"])
        let planned = try ClientPathsCLITests.evaluation(plan.stdout, key: "verdicts")
        let verdict = "\(probed["verdict"] ?? "?")/\(probed["reason"] ?? "?")"
        XCTAssertEqual(verdict, "\(planned["verdict"] ?? "?")/\(planned["reason"] ?? "?")", "\(name): plan")
        XCTAssertEqual(ClientPathsCLITests.ranges(probed), ClientPathsCLITests.ranges(planned), "\(name): plan's paths")

        let once = try PinguardCLI.run(["serve", "--once", "--config", "\(dir)/pinguard.yml"])
        let row = once.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.first { $0.contains("app/prod") }
        let cells = try XCTUnwrap(row, "\(name): serve --once\n\(once.stdout)\(once.stderr)")
        let i = try XCTUnwrap(cells.firstIndex(of: "app/prod"))
        XCTAssertEqual("\(cells[i + 1].lowercased())/\(cells[i + 2])", verdict, "\(name): serve --once")

        let lint = try PinguardCLI.run(["lint", "--config", "\(dir)/pinguard.yml", "--chain", "\(dir)/candidate.pem"])
        XCTAssertEqual(lint.stdout.contains("client-path-rejected"), probed["verdict"] as? String == "reject", "\(name): lint\n\(lint.stdout)")
        print("\(name): \(verdict) \(ClientPathsCLITests.ranges(probed))")
    }
}
