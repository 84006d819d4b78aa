import Foundation
import PinGuardCommands
import PinGuardTestSupport
import XCTest

/// `check-config` in-process: errors carry the line of the offending YAML node, not of a comment mentioning the same word.
final class CheckConfigLineTests: XCTestCase {
    // MARK: check-config: lines from the YAML, not from a text search

    /// An unknown policy set is reported at its item in `policy_sets`, not at a comment naming it.
    func testUnknownPolicySetIsReportedAtItsItem() throws {
        let dir = try configFolder(config: """
            # policy_sets: [ghost] was the old app; ghost is retired
            interval: 1m
            timeout: 5s
            policies: ["policies/*.yml"]
            journal: {enabled: false}
            targets:
              - host: valid.pinguard.test
              - host: rotated.pinguard.test
                policy_sets:
                  - app
                  - ghost

            """)
        let path = dir.appendingPathComponent("pinguard.yml").path
        let r = check(path)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderrText.contains("\(path):11: targets[1].policy_sets[1]: no loaded policy set is named \"ghost\""), r.stderrText)

        // Flow style: the item's own line.
        try """
            # ghost
            policies: ["policies/*.yml"]
            targets:
              # ghost again
              - {host: valid.pinguard.test, policy_sets: [ghost]}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let flow = check(path)
        XCTAssertEqual(flow.status, 2, "\(flow)")
        XCTAssertTrue(flow.stderrText.contains("\(path):5: targets[0].policy_sets[0]: no loaded policy set is named \"ghost\""), flow.stderrText)
    }

    /// A missing CA file and a policies pattern that matches nothing are reported at their own lines.
    func testMissingFilesAreReportedAtTheirKeys() throws {
        let dir = try configFolder(config: """
            # trust: the old ca_file was policies/extra/*.yml's sibling
            # policies/extra/*.yml and missing-ca.pem are mentioned here first
            policies:
              - "policies/*.yml"
              - "policies/extra/*.yml"
            journal: {enabled: false}

            """)
        let path = dir.appendingPathComponent("pinguard.yml").path
        let r = check(path)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderrText.contains("\(path):5: policies[1]: no policy file matches \"policies/extra/*.yml\""), r.stderrText)

        try """
            # ca_file: missing-ca.pem (see below)
            trust:
              ca_file: missing-ca.pem
            policies: ["policies/*.yml"]

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let ca = check(path)
        XCTAssertEqual(ca.status, 2, "\(ca)")
        XCTAssertTrue(ca.stderrText.contains("\(path):3: trust.ca_file: cannot read \(dir.appendingPathComponent("missing-ca.pem").path)"),
                      ca.stderrText)
    }

    /// Two policy files with the same set name: the second file's `name:` line, not a comment holding "name:".
    func testDuplicatePolicySetNameIsReportedAtItsNameLine() throws {
        let dir = try configFolder(config: "policies: [\"policies/*.yml\"]\n")
        let copy = "# name: copied from a.yml, rename before use\n# version: 1\n"
            + PolicyYAML.policySet(name: "app", rules: [HostPolicySpec(pattern: "x.example", pins: [])])
        let second = try PolicyYAML.write(copy, to: dir, as: "policies/b.yml")
        let r = check(dir.appendingPathComponent("pinguard.yml").path)
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderrText.contains("\(second):3: name: policy set name \"app\" is already used by"), r.stderrText)
    }

    // MARK: helpers

    private func check(_ path: String) -> CommandOutcome {
        CheckConfigCommand.run(CheckConfigCommand.Options(file: path, now: Date()))
    }

    /// A folder with `pinguard.yml` (`config`) and `policies/a.yml` defining set `app`.
    private func configFolder(config: String) throws -> URL {
        let pins = try PKIPins.shared()
        let dir = try TemporaryDirectory.make("pinguard-rf-check")
        try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "**.pinguard.test", pins: [.spki(pins.leaf("valid")), .spki(pins.reserve, role: "backup")]),
        ]), to: dir, as: "policies/a.yml")
        try PolicyYAML.write(config, to: dir, as: "pinguard.yml")
        return dir
    }
}
