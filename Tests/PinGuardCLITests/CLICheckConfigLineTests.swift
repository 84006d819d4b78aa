import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardTestSupport
import XCTest

/// `check-config` errors carry the line of the offending YAML node, not of a comment mentioning the same word.
final class CLICheckConfigLineTests: XCTestCase {
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
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):11: targets[1].policy_sets[1]: no loaded policy set is named \"ghost\""), r.stderr)

        // Flow style: the item's own line.
        try """
            # ghost
            policies: ["policies/*.yml"]
            targets:
              # ghost again
              - {host: valid.pinguard.test, policy_sets: [ghost]}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let flow = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(flow.status, 2, "\(flow)")
        XCTAssertTrue(flow.stderr.contains("\(path):5: targets[0].policy_sets[0]: no loaded policy set is named \"ghost\""), flow.stderr)
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
        let r = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(path):5: policies[1]: no policy file matches \"policies/extra/*.yml\""), r.stderr)

        try """
            # ca_file: missing-ca.pem (see below)
            trust:
              ca_file: missing-ca.pem
            policies: ["policies/*.yml"]

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let ca = try runPinguard(args: ["check-config", path])
        XCTAssertEqual(ca.status, 2, "\(ca)")
        XCTAssertTrue(ca.stderr.contains("\(path):3: trust.ca_file: cannot read \(dir.appendingPathComponent("missing-ca.pem").path)"),
                      ca.stderr)
    }

    /// Two policy files with the same set name: the second file's `name:` line, not a comment holding "name:".
    func testDuplicatePolicySetNameIsReportedAtItsNameLine() throws {
        let dir = try configFolder(config: "policies: [\"policies/*.yml\"]\n")
        let copy = "# name: copied from a.yml, rename before use\n# version: 1\n"
            + PolicyYAML.policySet(name: "app", rules: [HostPolicySpec(pattern: "x.example", pins: [])])
        let second = try PolicyYAML.write(copy, to: dir, as: "policies/b.yml")
        let r = try runPinguard(args: ["check-config", dir.appendingPathComponent("pinguard.yml").path])
        XCTAssertEqual(r.status, 2, "\(r)")
        XCTAssertTrue(r.stderr.contains("\(second):3: name: policy set name \"app\" is already used by"), r.stderr)
    }

    // MARK: helpers

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
