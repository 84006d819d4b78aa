import Foundation
import XCTest
import PinGuardCore
@testable import PinGuardReports
import PinGuardReaders

final class LintReportTests: XCTestCase {
    let findings = [
        LintFinding(rule: .noBackupPin, severity: .error, policySet: "ios-app", environment: "prod",
                    pattern: "api.example.com", file: "policies/ios,app.yml", line: 12,
                    message: "api.example.com has a single distinct pin", hint: "add a backup pin"),
        LintFinding(rule: .emptyEnvironment, severity: .warning, policySet: "ios-app", environment: "staging",
                    pattern: nil, file: "policies/ios,app.yml", line: nil,
                    message: "100% empty:\nreally", hint: "add policies"),
        LintFinding(rule: .shadowedPattern, severity: .info, policySet: "android", environment: "prod",
                    pattern: "a.example.com", file: nil, line: 3, message: "shadowed", hint: "merge pins"),
    ]

    func testText() {
        XCTAssertEqual(LintReport.render(findings, format: .text), """
        policies/ios,app.yml:12: error: [no-backup-pin] api.example.com has a single distinct pin (hint: add a backup pin)
        policies/ios,app.yml: warning: [empty-environment] 100% empty:
        really (hint: add policies)
        android:3: info: [shadowed-pattern] shadowed (hint: merge pins)

        """)
        XCTAssertEqual(LintReport.render([], format: .text), "")
    }

    func testGitHubWorkflowCommands() {
        XCTAssertEqual(LintReport.render(findings, format: .github), """
        ::error file=policies/ios%2Capp.yml,line=12,title=no-backup-pin::api.example.com has a single distinct pin (hint: add a backup pin)
        ::warning file=policies/ios%2Capp.yml,title=empty-environment::100%25 empty:%0Areally (hint: add policies)
        ::notice line=3,title=shadowed-pattern::shadowed (hint: merge pins)

        """)
    }

    func testJSONHasEveryKeyOnEveryObject() throws {
        let json = LintReport.render(findings, format: .json)
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(objects.count, 3)
        let keys: Set<String> = ["rule", "severity", "policy_set", "environment", "pattern", "file", "line", "message", "hint"]
        XCTAssertTrue(objects.allSatisfy { Set($0.keys) == keys })
        XCTAssertEqual(objects[0]["rule"] as? String, "no-backup-pin")
        XCTAssertEqual(objects[0]["line"] as? Int, 12)
        XCTAssertEqual(objects[0]["file"] as? String, "policies/ios,app.yml")
        XCTAssertTrue(objects[1]["line"] is NSNull)
        XCTAssertTrue(objects[1]["pattern"] is NSNull)
        XCTAssertEqual(objects[2]["severity"] as? String, "info")
        let empty = try JSONSerialization.jsonObject(with: Data(LintReport.render([], format: .json).utf8)) as? [Any]
        XCTAssertEqual(empty?.count, 0)
    }

    func testSARIF() throws {
        let sarif = LintReport.render(findings, format: .sarif)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        XCTAssertEqual(log["$schema"] as? String, "https://json.schemastore.org/sarif-2.1.0.json")
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "pinguard")
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, LintRule.allCases.map(\.rawValue))
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.compactMap { $0["level"] as? String }, ["error", "warning", "note"])
        for r in results {
            let index = try XCTUnwrap(r["ruleIndex"] as? Int)
            XCTAssertEqual(rules[index]["id"] as? String, r["ruleId"] as? String)
        }
        let location = try XCTUnwrap((results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        XCTAssertEqual((location["artifactLocation"] as? [String: Any])?["uri"] as? String, "policies/ios,app.yml")
        XCTAssertEqual((location["region"] as? [String: Any])?["startLine"] as? Int, 12)
        let noLine = try XCTUnwrap((results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        XCTAssertNil(noLine["region"])
        let noFile = try XCTUnwrap((results[2]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        XCTAssertEqual((noFile["artifactLocation"] as? [String: Any])?["uri"] as? String, "android", "code scanning needs a location")
        XCTAssertTrue(((results[0]["message"] as? [String: Any])?["text"] as? String)?.contains("hint: add a backup pin") ?? false)
    }

    func testExitCode() {
        let error = [findings[0]], warning = [findings[1]], info = [findings[2]]
        XCTAssertEqual(LintReport.exitCode([], strict: true), 0)
        XCTAssertEqual(LintReport.exitCode(info, strict: true), 0)
        XCTAssertEqual(LintReport.exitCode(warning, strict: false), 0)
        XCTAssertEqual(LintReport.exitCode(warning, strict: true), 1)
        XCTAssertEqual(LintReport.exitCode(error + info, strict: false), 1)
        XCTAssertEqual(LintReport.summary(findings), "1 error, 1 warning, 1 info")
        XCTAssertEqual(LintReport.summary([]), "0 errors, 0 warnings, 0 info")
    }

    func testSeverityOrder() {
        XCTAssertEqual([FindingSeverity.info, .error, .warning].sorted(), [.error, .warning, .info])
    }
}
