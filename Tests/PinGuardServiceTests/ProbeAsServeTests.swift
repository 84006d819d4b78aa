import Foundation
import PinGuardCommands
import PinGuardConfig
import PinGuardDemo
import PinGuardCore
@testable import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// `probe --config` and `serve` with one configuration judge one target alike: the same sets, verdicts and reasons,
/// and the same forecast basis.
final class ProbeAsServeTests: XCTestCase {
    func testProbeWithTheConfigurationJudgesTheTargetAsTheServiceDoes() async throws {
        let pki = try RevocationPKI(base: "http://127.0.0.1:9")
        let server = try LoopbackTLSServer(leaf: pki.leaf("healthy"), chain: pki.intermediate)
        defer { server.stop() }
        let dir = try TemporaryDirectory.make("pinguard-probe-as-serve")
        try pki.root.pem.write(to: dir.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        try InProcessService.policy(name: "strict", pattern: "*.pinguard.test", pins: [pki.stranger.spkiSHA256])
            .write(to: dir.appendingPathComponent("strict.yml"), atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("pinguard.yml").path
        try """
            policies: ["strict.yml"]
            trust: {ca_file: root.pem}
            renewal: {before: 45d}
            journal: {enabled: false}
            targets:
              - {name: healthy, host: healthy.pinguard.test, port: \(server.port), connect: 127.0.0.1}
            """.write(toFile: config, atomically: true, encoding: .utf8)

        var options = ProbeCommand.Options(host: "healthy.pinguard.test", port: server.port, now: Date())
        options.config = config
        options.json = true
        options.crl = false
        let probed = await ProbeCommand.run(options)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any], "\(probed)")
        let fromProbe = (json["evaluations"] as? [[String: Any]] ?? []).map {
            "\($0["policy_set"] as? String ?? "") \($0["verdict"] as? String ?? "") \($0["reason"] as? String ?? "")"
        }

        let runtime = try PinGuardRuntime(loaded: try ConfigurationLoader.load(path: config), journal: JournalSink(enabled: false))
        let round = await runtime.runRound(spread: false)
        let served = try XCTUnwrap(round.results.first)
        let fromServe = served.evaluations.map { "\($0.policySet) \($0.verdict.rawValue) \($0.reason.rawValue)" }
        await runtime.shutdown()

        XCTAssertEqual(fromProbe, ["strict reject pin_mismatch"])
        XCTAssertEqual(fromProbe, fromServe)
        XCTAssertEqual((json["forecast"] as? [String: Any])?["when_basis"] as? String, served.outlook?.whenBasis.rawValue)
    }
}
