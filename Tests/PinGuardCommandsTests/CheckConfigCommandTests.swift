import Foundation
import PinGuardCommands
import PinGuardTestSupport
import XCTest

/// `check-config` in-process: a good configuration is one line of what loaded and where served chains are
/// remembered; a bad one is status 2 naming file and line; the state file is found as `serve` finds it.
final class CheckConfigCommandTests: XCTestCase {
    func check(_ path: String, environment: [String: String] = [:]) -> CommandOutcome {
        var options = CheckConfigCommand.Options(file: path, now: Date())
        options.environment = environment
        return CheckConfigCommand.run(options)
    }

    /// A config folder: `pinguard.yml` with two targets, and two policy files under `policies/`.
    func goodConfiguration(state: String = "") throws -> URL {
        let pki = try TestPKI.shared()
        let dir = try TemporaryDirectory.make("pinguard-check-config")
        try PolicyYAML.write("""
            listen: "127.0.0.1:9477"
            interval: 1m
            timeout: 5s
            concurrency: 4
            trust: {ca_file: \(pki.caBundle)}
            expiry_warning_days: 30
            policies: ["policies/*.yml"]
            journal: {enabled: false}
            targets:
              - host: valid.pinguard.test
                port: 8443
                connect: 127.0.0.1
                policy_sets: [app]
              - host: rotated.pinguard.test
                port: 8443
                connect: 127.0.0.1
                name: rotated
                environment: staging
            \(state)
            """, to: dir, as: "pinguard.yml")
        try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "*.pinguard.test", pins: [.spki(try PKIPins.shared().leaf("valid")), .spki(try PKIPins.shared().reserve, role: "backup")]),
        ]), to: dir, as: "policies/app.yml")
        try PolicyYAML.write(PolicyYAML.policySet(name: "web", environment: "staging", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [PinSpec(type: "ca", hash: try PKIPins.shared().intermediate)],
                           failStrategy: "permissive", expires: "2030-06-30"),
        ]), to: dir, as: "policies/web.yml")
        return dir
    }

    func edit(_ dir: URL, _ file: String, _ change: (String) -> String) throws -> String {
        let url = dir.appendingPathComponent(file)
        let before = try String(contentsOf: url, encoding: .utf8)
        let after = change(before)
        XCTAssertNotEqual(before, after, "the edit must change \(file)")
        try after.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAGoodConfigurationSaysWhatLoadedAndWhereChainsAreRemembered() throws {
        let path = try goodConfiguration().appendingPathComponent("pinguard.yml").path
        let r = check(path)
        XCTAssertEqual(r.status, 0, r.description)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "\(path): ok: 2 targets, 2 policy sets (app, web)")
        XCTAssertTrue(lines.contains("served chains are remembered in memory only (no state.path in the configuration and no $STATE_DIRECTORY)"),
                      r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("note: pinguard.service keeps its state in $STATE_DIRECTORY/state.db") }, r.stdout)
        XCTAssertEqual(r.stderr, [])
    }

    func testTheStateFileIsFoundUnderStateDirectoryAsServeFindsIt() throws {
        let dir = try goodConfiguration()
        let r = check(dir.appendingPathComponent("pinguard.yml").path, environment: ["STATE_DIRECTORY": dir.path])
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stdout.contains("served chains are remembered in \(dir.path)/state.db\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("note:"), r.stdout)
    }

    func testAStateFileServeCannotUseIsAWarningNotAnError() throws {
        let dir = try goodConfiguration(state: "state: {path: state.db}")
        try Data("not an SQLite database, just bytes".utf8).write(to: dir.appendingPathComponent("state.db"))
        let r = check(dir.appendingPathComponent("pinguard.yml").path)
        XCTAssertEqual(r.status, 0, r.description)
        XCTAssertTrue(r.stdout.contains("served chains are remembered in memory only: "), r.stdout)
        XCTAssertEqual(r.stderr.count, 1, r.stderrText)
        XCTAssertTrue(r.stderr[0].hasSuffix(": serve will run without it and write nothing to it"), r.stderrText)
    }

    func testAnUnknownKeyIsNamedWithFileAndLine() throws {
        let path = try edit(try goodConfiguration(), "pinguard.yml") { $0.replacingOccurrences(of: "timeout: 5s", with: "timeot: 5s") }
        let r = check(path)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr.count, 1, r.stderrText)
        XCTAssertTrue(r.stderr[0].hasPrefix("pinguard: \(path):3:"), r.stderrText)
        XCTAssertTrue(r.stderr[0].contains("timeot"), r.stderrText)
    }

    func testABadDurationIsNamedWithFileAndLine() throws {
        let path = try edit(try goodConfiguration(), "pinguard.yml") { $0.replacingOccurrences(of: "interval: 1m", with: "interval: 1 minute") }
        let r = check(path)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("\(path):2:"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("interval"), r.stderrText)
    }

    func testABadHashInALoadedPolicyIsNamedWithItsFileAndLine() throws {
        let dir = try goodConfiguration()
        let policy = try edit(dir, "policies/app.yml") { text in
            text.replacingOccurrences(of: "role: backup", with: "role: backup}\n            - {type: spki, hash: \"sha256/short=\"")
        }
        let lines = try String(contentsOfFile: policy, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try XCTUnwrap(lines.firstIndex { $0.contains("sha256/short=") }) + 1
        let r = check(dir.appendingPathComponent("pinguard.yml").path)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("\(policy):\(line):"), "want \(policy):\(line): in \(r.stderrText)")
    }

    func testAnUnknownPolicySetNameIsAnError() throws {
        let path = try edit(try goodConfiguration(), "pinguard.yml") { $0.replacingOccurrences(of: "policy_sets: [app]", with: "policy_sets: [ap]") }
        let r = check(path)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("\(path):"), r.stderrText)
        XCTAssertTrue(r.stderrText.contains("\"ap\""), r.stderrText)
    }

    func testAMissingFileIsStatusTwoNamingIt() {
        let r = check("/nonexistent/pinguard.yml")
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("/nonexistent/pinguard.yml"), r.stderrText)
    }
}
