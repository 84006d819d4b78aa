import Foundation
import PinGuardTestSupport
import XCTest

/// `target_files`: targets from files in Prometheus file_sd format, with labels, picked up on change
/// without a SIGHUP, and a bad file rejected while the running targets stay.
final class TargetFilesServeTests: XCTestCase {
    func testTargetFilesArePickedUpOnChangeWithTheirLabels() throws {
        // A file_sd entry is HOST:PORT, with no connect: address: the name itself must resolve to nginx.
        let w = try ServiceWorld.resolving()
        let dir = try TemporaryDirectory.make("pinguard-target-files")
        let hosts = dir.appendingPathComponent("hosts")
        try "127.0.0.1 localhost\n127.0.0.1 valid.pinguard.test\n127.0.0.1 rotated.pinguard.test\n"
            .write(to: hosts, atomically: true, encoding: .utf8)
        let config = try w.writeConfig(in: dir, targets: [], interval: "1h")
        try (String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "targets:\n", with: "targets: []\n")
             + "target_files: [\"targets/*.json\"]\n").write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("targets"), withIntermediateDirectories: true)
        let valid = "valid.pinguard.test:\(w.farm.port)", rotated = "rotated.pinguard.test:\(w.farm.port)"
        try "[{\"targets\": [\"\(valid)\"], \"labels\": {\"team\": \"payments\"}}]"
            .write(to: dir.appendingPathComponent("targets/a.json"), atomically: true, encoding: .utf8)

        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct, hostsFile: hosts.path)
        defer { serve.stop() }
        var m = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": valid]) == 1 }
        XCTAssertEqual(m.value("pinguard_target_info", ["target": valid, "team": "payments"]), 1, serve.stderr)
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": valid, "policy_set": "ios-app"]), 1)

        try "[{\"targets\": [\"\(rotated)\"]}]".write(to: dir.appendingPathComponent("targets/b.json"), atomically: true, encoding: .utf8)
        m = try serve.waitForMetrics(timeout: 20) { $0.value("pinguard_policy_accept", ["target": rotated, "policy_set": "ios-app"]) != nil }
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": rotated, "policy_set": "ios-app"]), 0, "picked up without SIGHUP")
        XCTAssertEqual(m.value("pinguard_targets"), 2)

        try "[{\"targets\": [\"x.pinguard.test\"], \"labels\": {\"job\": \"clash\"}}]"
            .write(to: dir.appendingPathComponent("targets/c.json"), atomically: true, encoding: .utf8)
        XCTAssertTrue(Polling.holds(within: 60) { serve.stderr.contains("label \"job\" is one pinguard's series use") }, serve.stderr)
        m = try serve.metrics()
        XCTAssertEqual(m.value("pinguard_targets"), 2, "a bad target file leaves the running targets in place")
        XCTAssertEqual(m.value("pinguard_config_last_reload_successful"), 0)
    }
}
