import Foundation
import PinGuardTestSupport
import XCTest

/// `files:`: certificate chains on disk judged like served chains, before they are served (a staged
/// renewal, a mounted secret), with the `pinguard_file_*` series labelled `file`.
final class FileTargetsServeTests: XCTestCase {
    func testStagedChainsAreJudgedBeforeTheyAreServed() throws {
        let w = try ServiceWorld.direct()
        let dir = try TemporaryDirectory.make("pinguard-files")
        let staged = dir.appendingPathComponent("staged")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        // The renewal a deployment staged for valid.pinguard.test keeps the pinned key; the one for
        // rotated.pinguard.test carries a key no ios-app pin covers; the expiring one lasts 5 days.
        try FileManager.default.copyItem(atPath: w.pki.chain("valid"), toPath: staged.appendingPathComponent("valid.pem").path)
        try FileManager.default.copyItem(atPath: w.pki.chain("rotated"), toPath: staged.appendingPathComponent("rotated.pem").path)
        try FileManager.default.copyItem(atPath: w.pki.chain("expiring"), toPath: staged.appendingPathComponent("expiring.pem").path)
        try Data("not a certificate\n".utf8).write(to: staged.appendingPathComponent("broken.pem"))
        let config = try w.writeConfig(in: dir, targets: [w.healthy], interval: "1h")
        try (String(contentsOfFile: config, encoding: .utf8) + """
        files:
          - {path: staged/valid.pem, host: valid.pinguard.test, policy_sets: [ios-app]}
          - {path: "staged/rot*.pem", host: rotated.pinguard.test, policy_sets: [ios-app]}
          - {path: staged/expiring.pem, host: expiring.pinguard.test}
          - {path: staged/broken.pem, host: valid.pinguard.test}
          - {path: "staged/none-*.pem", host: valid.pinguard.test}

        """).write(toFile: config, atomically: true, encoding: .utf8)
        let serve = try ServeProcess(arguments: ["--config", config, "--log-events"], mode: .direct)
        defer { serve.stop() }
        let m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "healthy"]) == 1 }
        func file(_ name: String) -> String { staged.appendingPathComponent(name).path }
        XCTAssertEqual(m.value("pinguard_file_policy_accept", ["file": file("valid.pem"), "policy_set": "ios-app"]), 1, serve.stderr)
        XCTAssertEqual(m.value("pinguard_file_reserve_pins", ["file": file("valid.pem"), "policy_set": "ios-app"]), 1)
        XCTAssertEqual(m.value("pinguard_file_chain_trusted", ["file": file("valid.pem")]), 1)
        XCTAssertEqual(m.value("pinguard_file_policy_accept", ["file": file("rotated.pem"), "policy_set": "ios-app"]), 0,
                       "the rotated key is rejected before it is served")
        let expiry = try XCTUnwrap(m.value("pinguard_file_chain_earliest_expiry_timestamp_seconds", ["file": file("expiring.pem")]))
        XCTAssertEqual((expiry - Date().timeIntervalSince1970) / 86_400, 5, accuracy: 1.1)
        XCTAssertEqual(m.value("pinguard_file_policy_accept", ["file": file("expiring.pem"), "policy_set": "android-app"]), 1)
        // No target probes expiring.pinguard.test and nothing newer is staged for it: the file's expiry is the
        // host's situation, naming the file; the other files are far from expiry.
        XCTAssertEqual(m.value("pinguard_situation_info", ["target": "expiring.pinguard.test", "situation": "expires_unrenewed",
                                                           "severity": "critical"]), 1, serve.stderr)
        XCTAssertEqual(m.samples("pinguard_situation_words_info", ["target": "expiring.pinguard.test"]).first?.labels["file"],
                       file("expiring.pem"))
        XCTAssertEqual(m.samples("pinguard_situation_info").filter { $0.labels["target"]?.hasSuffix(".pinguard.test") == true }.count, 1,
                       "only the expiring file")
        XCTAssertEqual(m.value("pinguard_file_success", ["file": file("broken.pem")]), 0)
        XCTAssertEqual(m.value("pinguard_file_success", ["file": file("none-*.pem")]), 0, "a pattern matching nothing is reported")
        XCTAssertNil(m.value("pinguard_probe_success", ["target": file("valid.pem")]), "files are not probe targets")
        // A staged chain is not served: its events say staged, name the file and the host, and never a port.
        let events = serve.stderr.split(separator: "\n")
        let rejected = events.first { $0.contains("[staged_chain_rejected]") && $0.contains(file("rotated.pem")) } ?? ""
        XCTAssertTrue(rejected.contains("ios-app (prod) would reject this chain once served"), serve.stderr)
        XCTAssertTrue(events.contains { $0.contains("[staged_chain_unreadable]") && $0.contains(file("broken.pem")) }, serve.stderr)
        XCTAssertFalse(events.contains { ($0.contains("[pin_mismatch]") || $0.contains("[probe_failed]")) && $0.contains("/staged/") },
                       "no live event for a file: \(serve.stderr)")
        XCTAssertFalse(events.contains { $0.contains("/staged/") && $0.contains(":443") }, "no made-up port")
        // And `serve --once` lists them after the served targets.
        let once = try PinguardCLI.run(["serve", "--config", config, "--once"], timeout: 30)
        XCTAssertTrue(once.stdout.contains("staged chains in files:, judged as if served:"), once.stdout)
        let rotated = once.stdout.split(separator: "\n").first { $0.contains(file("rotated.pem")) } ?? ""
        XCTAssertTrue(rotated.contains("ios-app/prod") && rotated.contains("REJECT"), once.stdout)
    }
}
