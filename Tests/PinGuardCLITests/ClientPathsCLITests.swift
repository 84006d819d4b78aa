import Foundation
import PinGuardTestSupport
import XCTest

/// `probe` and `plan` judge an Android app on the path each Android version builds from a real server's chain
/// (`openssl s_server` on loopback), through a client trust stores file made at test time, and both foretell the
/// store change that breaks the app.
final class ClientPathsCLITests: XCTestCase {
    struct Setup {
        let pki: GenerationMovePKI
        let folder: String

        /// Android's store holds X1 from API 25 and X2 from API 34; it gains the new root YE for API 36 and later
        /// in `daysAhead` days. The app pins X1 and X2 and runs on API 25-37.
        init(daysAhead: Double) throws {
            pki = try GenerationMovePKI()
            folder = try TemporaryDirectory.make("pinguard-client-paths").path
            try pki.leaf.pem.write(toFile: "\(folder)/leaf.pem", atomically: true, encoding: .utf8)
            try pki.leaf.key.privateKeyPEM.write(toFile: "\(folder)/leaf.key", atomically: true, encoding: .utf8)
            try (pki.intermediate.pem + pki.yeByX2.pem + pki.x2ByX1.pem).write(toFile: "\(folder)/chain.pem", atomically: true, encoding: .utf8)
            try pki.served.map(\.pem).joined().write(toFile: "\(folder)/candidate.pem", atomically: true, encoding: .utf8)
            let stores = try pki.storesJSON(client: "android", known: "24-37", roots: ["x1": "25-", "x2": "34-"],
                                            changes: [("ye", "added", "36-", Date().addingTimeInterval(daysAhead * 86_400))])
            try stores.write(toFile: "\(folder)/stores.json", atomically: true, encoding: .utf8)
            try pki.androidPolicy(clientVersions: "25-37").write(toFile: "\(folder)/app.yml", atomically: true, encoding: .utf8)
        }

        var flags: [String] { ["--policy", "\(folder)/app.yml", "--client-stores", "\(folder)/stores.json"] }
    }

    static func evaluation(_ json: String, key: String) throws -> [String: Any] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap((object[key] as? [[String: Any]])?.first, json)
    }

    static func ranges(_ evaluation: [String: Any]) -> [String] {
        (evaluation["paths"] as? [[String: Any]] ?? []).map { p in
            "\(p["versions"] ?? "-") \(p["verdict"] ?? "-") \((p["chain"] as? [String])?.count ?? 0)"
        }
    }

    func testEachAndroidVersionIsJudgedOnItsOwnPathAndTheStoreChangeAheadIsForetold() throws {
        let setup = try Setup(daysAhead: 20)
        let server = try TLSServer(certificate: "\(setup.folder)/leaf.pem", key: "\(setup.folder)/leaf.key", chain: "\(setup.folder)/chain.pem")
        defer { server.stop() }
        let probe = try PinguardCLI.run(["probe", "\(GenerationMovePKI.host):\(server.port)", "--connect", "127.0.0.1", "--json", "--no-crl"]
                                        + setup.flags)
        XCTAssertEqual(probe.status, 0, probe.stderr)
        let probed = try Self.evaluation(probe.stdout, key: "evaluations")
        XCTAssertEqual(probed["verdict"] as? String, "accept")
        XCTAssertEqual(Self.ranges(probed), ["25-33 accept 5", "34-37 accept 4"], "API 34 on anchors at X2 itself")

        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let situation = try XCTUnwrap((object["situations"] as? [[String: Any]])?.first)
        XCTAssertEqual(situation["situation"] as? String, "breaks_on_client_update")
        XCTAssertEqual(situation["severity"] as? String, "warning")
        let summary = situation["summary"] as? String ?? ""
        XCTAssertTrue(summary.contains("Android API 36-37") && summary.contains("Test Root YE"), summary)
        XCTAssertTrue((situation["action"] as? String ?? "").contains("sha256/\(setup.pki.keys.ye.spkiSHA256)"), "\(situation)")

        let plan = try PinguardCLI.run(["plan", "--chain", "\(setup.folder)/candidate.pem", "--host", GenerationMovePKI.host,
                                        "--format", "json"] + setup.flags)
        let planned = try Self.evaluation(plan.stdout, key: "verdicts")
        XCTAssertEqual(Self.ranges(planned), Self.ranges(probed), "plan and probe build the same paths")
        XCTAssertEqual((planned["paths"] as? [[String: Any]])?.compactMap { $0["chain"] as? [String] },
                       (probed["paths"] as? [[String: Any]])?.compactMap { $0["chain"] as? [String] })
    }

    func testAStoreChangeWithinAWeekIsCriticalAndTheTableNamesTheVersions() throws {
        let setup = try Setup(daysAhead: 3)
        let server = try TLSServer(certificate: "\(setup.folder)/leaf.pem", key: "\(setup.folder)/leaf.key", chain: "\(setup.folder)/chain.pem")
        defer { server.stop() }
        let probe = try PinguardCLI.run(["probe", "\(GenerationMovePKI.host):\(server.port)", "--connect", "127.0.0.1", "--no-crl"] + setup.flags)
        XCTAssertTrue(probe.stdout.contains("CRITICAL: app (prod) accepts"), probe.stdout)
        XCTAssertTrue(probe.stdout.contains("rejects it on Android API 36-37 once its store gains CN=Test Root YE"), probe.stdout)
        XCTAssertTrue(probe.stdout.contains("app: accepts on Android API 25-33: the path ends at CN=Test Root X1"), probe.stdout)
    }
}

/// `lint --chain` judges the chain on the same paths as `probe` and `plan`.
final class ClientPathsLintTests: XCTestCase {
    func testLintNamesTheVersionsThatRejectAndTheStoreChangeAhead() throws {
        let setup = try ClientPathsCLITests.Setup(daysAhead: 20)
        try "trust: {client_stores: stores.json}\npolicies: [app.yml]\ntargets: []\n"
            .write(toFile: "\(setup.folder)/pinguard.yml", atomically: true, encoding: .utf8)
        let full = try PinguardCLI.run(["lint", "--config", "\(setup.folder)/pinguard.yml", "--chain", "\(setup.folder)/candidate.pem"])
        XCTAssertEqual(full.status, 0, full.stdout + full.stderr)
        XCTAssertTrue(full.stdout.contains("breaks-on-client-update") && full.stdout.contains("Android API 36-37"), full.stdout)
        XCTAssertFalse(full.stdout.contains("client-path-rejected"), full.stdout)

        let short = "\(setup.folder)/short.pem"
        try (setup.pki.leaf.pem + setup.pki.intermediate.pem).write(toFile: short, atomically: true, encoding: .utf8)
        let cut = try PinguardCLI.run(["lint", "--config", "\(setup.folder)/pinguard.yml", "--chain", short])
        XCTAssertEqual(cut.status, 1, cut.stdout + cut.stderr)
        XCTAssertTrue(cut.stdout.contains("client-path-rejected") && cut.stdout.contains("rejects on Android API 25-37"), cut.stdout)

        let rooted = "\(setup.folder)/rooted.pem"
        try (setup.pki.leaf.pem + setup.pki.intermediate.pem + setup.pki.ye.pem).write(toFile: rooted, atomically: true, encoding: .utf8)
        let hazard = try PinguardCLI.run(["lint", "--config", "\(setup.folder)/pinguard.yml", "--chain", rooted])
        XCTAssertTrue(hazard.stdout.contains("served-chain-hazard") && hazard.stdout.contains("self-signed root CN=Test Root YE"), hazard.stdout)
    }
}
