import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardTestSupport
import XCTest

/// A reload of an unchanged `pinguard.yml` takes the last parse of its text (the targets keep their
/// storage), and still reads everything the file names again; any change to the text is parsed afresh.
final class ConfigurationParseReuseTests: XCTestCase {
    private func storage(_ targets: [Target]) -> UnsafeRawPointer? {
        targets.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    private func policy(_ pin: UInt8) -> String {
        PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "**.example.com", pins: [.spki(Data(repeating: pin, count: 32).base64EncodedString())]),
        ])
    }

    private func config(targets: Int) -> String {
        var y = "policies: [\"policies/*.yml\"]\ntargets:\n"
        for i in 0..<targets { y += "  - {host: t\(i).example.com}\n" }
        return y
    }

    func testTheSameTextIsParsedOnceAndPoliciesAreStillReadAgain() throws {
        let dir = try TemporaryDirectory.make("pinguard-parse-reuse")
        _ = try PolicyYAML.write(policy(1), to: dir, as: "policies/app.yml")
        let path = try PolicyYAML.write(config(targets: 50), to: dir, as: "pinguard.yml")
        let loader = ShardedConfigurationLoader(override: nil)
        let first = try loader.load(path: path)

        _ = try PolicyYAML.write(policy(2), to: dir, as: "policies/app.yml")
        let policyEdit = try loader.load(path: path)
        XCTAssertEqual(storage(policyEdit.config.targets), storage(first.config.targets), "the parse of the same text is taken")
        XCTAssertEqual(policyEdit.config.targets, first.config.targets)
        XCTAssertNotEqual(policyEdit.policySets, first.policySets, "the edited policy file is read again")
        XCTAssertEqual(policyEdit.policySets, try ConfigurationLoader.load(path: path).policySets)

        _ = try PolicyYAML.write(config(targets: 51), to: dir, as: "pinguard.yml")
        let edited = try loader.load(path: path)
        XCTAssertEqual(edited.config.targets.count, 51, "an edited file is parsed again")
        XCTAssertNotEqual(storage(edited.config.targets), storage(first.config.targets))
    }

    func testAFileThatFailsToParseFailsEveryTimeAndLeavesTheLastGoodParse() throws {
        let memo = ParsedConfigurationMemo()
        let good = config(targets: 3)
        let parsed = try memo.parse(good, file: "/etc/pinguard/pinguard.yml")
        for _ in 0..<2 {
            XCTAssertThrowsError(try memo.parse("targets: [{host: }]\n", file: "/etc/pinguard/pinguard.yml")) { error in
                XCTAssertTrue("\(error)".contains("pinguard.yml"), "\(error)")
            }
        }
        let again = try memo.parse(good, file: "/etc/pinguard/pinguard.yml")
        XCTAssertEqual(storage(again.targets), storage(parsed.targets))
        let elsewhere = try memo.parse(good, file: "/srv/other/pinguard.yml")
        XCTAssertNotEqual(storage(elsewhere.targets), storage(parsed.targets), "another path is parsed on its own (messages name it)")
        XCTAssertEqual(elsewhere.targets, parsed.targets)
    }
}
