import Foundation
import PinGuardCommands
import PinGuardConfig
import PinGuardCore
import PinGuardDemo
@testable import PinGuardService
import PinGuardTestSupport
import XCTest

/// The service and `probe --config` forecast a renewal under the configured pool's issuer on the path each Android
/// version builds above it: today's chain ends at the pinned old root on every version, the next issuer's at a new
/// root that API 36 and later hold, so the forecast names those versions.
final class NextIssuerPathsServeTests: XCTestCase {
    func testTheRoundAndProbeForecastTheVersionsWhoseStoreHoldsTheNextIssuersRoot() async throws {
        let pki = try GenerationMovePKI()
        let (todayCA, leaf) = try GenerationMovePKI.issuing("Test X1 CA", under: pki.x1, serial: 30)
        let nextCA = try GenerationMovePKI.issuing("Test YE2", under: pki.ye, serial: 32).ca
        let server = try LoopbackTLSServer(leaf: leaf, chain: todayCA)
        defer { server.stop() }
        let dir = try TemporaryDirectory.make("pinguard-next-issuer-serve")
        try (nextCA.pem + pki.yeByX2.pem + pki.x2ByX1.pem).write(to: dir.appendingPathComponent("next.pem"), atomically: true, encoding: .utf8)
        try pki.storesJSON(client: "android", known: "24-37", roots: ["x1": "25-", "x2": "34-", "ye": "36-"])
            .write(to: dir.appendingPathComponent("stores.json"), atomically: true, encoding: .utf8)
        try pki.androidPolicy(clientVersions: "25-37").write(to: dir.appendingPathComponent("app.yml"), atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("pinguard.yml").path
        try """
            policies: [app.yml]
            trust: {client_stores: stores.json}
            renewal: {issuers: next, key: rotate}
            issuer_pools: {next: [next.pem]}
            journal: {enabled: false}
            targets:
              - {name: app, host: \(GenerationMovePKI.host), port: \(server.port), connect: 127.0.0.1}
            """.write(toFile: config, atomically: true, encoding: .utf8)

        let runtime = try PinGuardRuntime(loaded: try ConfigurationLoader.load(path: config), journal: JournalSink(enabled: false))
        let round = await runtime.runRound(spread: false)
        await runtime.shutdown()
        let served = try XCTUnwrap(round.results.first)
        XCTAssertEqual(served.evaluations.map(\.verdict), [.accept], "every version anchors today's chain at the pinned X1")
        let forecast = try XCTUnwrap(served.forecasts.first)
        XCTAssertEqual(forecast.rejectRatio, 1, "API 36-37 build the next chain's path to Test Root YE, which the app does not pin")
        XCTAssertEqual(forecast.rejectingVersions, "Android API 36-37")

        var options = ProbeCommand.Options(host: GenerationMovePKI.host, port: server.port, now: Date())
        options.config = config
        options.connect = ["127.0.0.1"]
        options.json = true
        options.crl = false
        let probed = await ProbeCommand.run(options)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any], "\(probed)")
        let set = try XCTUnwrap(((json["forecast"] as? [String: Any])?["sets"] as? [[String: Any]])?.first, "\(json)")
        XCTAssertEqual(set["rejecting_versions"] as? String, "Android API 36-37", "probe forecasts as the service does")
    }
}
