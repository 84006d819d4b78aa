import Foundation
import XCTest
import PinGuardCore
@testable import PinGuardReports
import PinGuardReaders

/// The SARIF log against the SARIF 2.1.0 specification (OASIS, sarif-v2.1.0-os) and GitHub code scanning's
/// upload requirements (docs.github.com, "SARIF support for code scanning"): every property either requires,
/// checked as written there, since no schema validator is installable offline.
final class LintSARIFCodeScanningTests: XCTestCase {
    let findings = [
        LintFinding(rule: .atsArbitraryLoads, severity: .error, policySet: "Info", environment: nil, pattern: nil,
                    file: "ios/App/Info.plist", line: 7, message: "NSAllowsArbitraryLoads is true", hint: "remove it"),
        LintFinding(rule: .noBackupPin, severity: .error, policySet: "Info", environment: "prod", pattern: "api.example.com",
                    file: "ios/App/Info.plist", line: 27, message: "single pin", hint: "add a backup"),
        LintFinding(rule: .shadowedPattern, severity: .info, policySet: "set", environment: "prod", pattern: "a.example.com",
                    file: nil, line: nil, message: "shadowed", hint: "merge"),
        LintFinding(rule: .androidUserCA, severity: .warning, policySet: "nsc", environment: nil, pattern: nil,
                    file: "/abs/res dir/xml/nsc.xml", line: 0, message: "user CA", hint: "debug-overrides"),
    ]

    func object(_ any: Any?, _ what: String, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(any as? [String: Any], "\(what) must be an object", line: line)
    }

    func string(_ o: [String: Any], _ key: String, _ what: String, line: UInt = #line) throws -> String {
        let s = try XCTUnwrap(o[key] as? String, "\(what).\(key) must be a string", line: line)
        XCTAssertFalse(s.isEmpty, "\(what).\(key) must not be empty", line: line)
        return s
    }

    /// A `message` / `multiformatMessageString` object: `text` is required (§3.11.8, §3.12.3).
    func checkMessage(_ any: Any?, _ what: String) throws {
        _ = try string(try object(any, what), "text", what)
    }

    func testLogHasEveryFieldSARIFAndCodeScanningRequire() throws {
        let options = LintSARIFOptions(toolVersion: "0.1.0", documentationURI: "https://example.org/docs/reference.md",
                                       publicSuffixList: "bundled copy (2023-02-09)")
        let text = LintReport.render(findings, format: .sarif, sarif: options)
        let log = try object(try JSONSerialization.jsonObject(with: Data(text.utf8)), "log")
        // §3.13: sarifLog requires version "2.1.0" and runs; $schema is recommended.
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        XCTAssertNotNil(URL(string: try string(log, "$schema", "log")))
        let runs = try XCTUnwrap(log["runs"] as? [Any])
        XCTAssertEqual(runs.count, 1)
        let run = try object(runs[0], "run")
        // §3.14: run requires tool; §3.18/§3.19: tool requires driver, driver requires name.
        let driver = try object(try object(run["tool"], "tool")["driver"], "driver")
        XCTAssertEqual(try string(driver, "name", "driver"), "pinguard")
        // Code scanning: driver.version (or semanticVersion) and informationUri are shown with each alert.
        XCTAssertEqual(try string(driver, "version", "driver"), "0.1.0")
        XCTAssertEqual(driver["semanticVersion"] as? String, "0.1.0")
        let info = try string(driver, "informationUri", "driver")
        XCTAssertNotNil(URL(string: info)?.scheme, "informationUri must be an absolute URI")
        // §3.49: reportingDescriptor requires id; code scanning uses name, short/full description, help, helpUri,
        // defaultConfiguration.level, properties.tags, properties.precision and properties["security-severity"].
        let rules = try XCTUnwrap(driver["rules"] as? [Any]).map { try object($0, "rule") }
        XCTAssertEqual(rules.map { $0["id"] as? String }, LintRule.allCases.map(\.rawValue))
        XCTAssertEqual(Set(rules.compactMap { $0["id"] as? String }).count, rules.count, "rule ids are unique")
        for rule in rules {
            let id = try string(rule, "id", "rule")
            _ = try string(rule, "name", id)
            try checkMessage(rule["shortDescription"], "\(id).shortDescription")
            try checkMessage(rule["fullDescription"], "\(id).fullDescription")
            let help = try object(rule["help"], "\(id).help")
            _ = try string(help, "text", "\(id).help")
            _ = try string(help, "markdown", "\(id).help")
            XCTAssertNotNil(URL(string: try string(rule, "helpUri", id))?.scheme, "\(id).helpUri must be absolute")
            let level = try string(try object(rule["defaultConfiguration"], "\(id).defaultConfiguration"), "level", id)
            XCTAssertTrue(["none", "note", "warning", "error"].contains(level), "§3.27.10 level: \(level)")
            let props = try object(rule["properties"], "\(id).properties")
            let tags = try XCTUnwrap(props["tags"] as? [String], "\(id).properties.tags")
            XCTAssertTrue(tags.contains("security"), id)
            XCTAssertEqual(Set(tags).count, tags.count, "§3.8.4 tags are unique")
            let severity = try XCTUnwrap(Double(try string(props, "security-severity", id)), "\(id): security-severity is a number in a string")
            XCTAssertTrue((0.1...10.0).contains(severity), "\(id): \(severity)")
            XCTAssertTrue(["very-high", "high", "medium", "low"].contains(props["precision"] as? String ?? ""), id)
        }
        // §3.27: result requires message; ruleId/ruleIndex must agree; code scanning requires a location and
        // uses partialFingerprints to track an alert across runs.
        let results = try XCTUnwrap(run["results"] as? [Any]).map { try object($0, "result") }
        XCTAssertEqual(results.count, findings.count)
        for (k, r) in results.enumerated() {
            let what = "results[\(k)]"
            let ruleId = try string(r, "ruleId", what)
            let index = try XCTUnwrap(r["ruleIndex"] as? Int, "\(what).ruleIndex")
            XCTAssertEqual(rules[index]["id"] as? String, ruleId)
            XCTAssertTrue(["none", "note", "warning", "error"].contains(try string(r, "level", what)))
            try checkMessage(r["message"], "\(what).message")
            let locations = try XCTUnwrap(r["locations"] as? [Any], "\(what).locations")
            XCTAssertFalse(locations.isEmpty, "\(what): code scanning refuses results without a location")
            for l in locations {
                let physical = try object(try object(l, "location")["physicalLocation"], "\(what).physicalLocation")
                let uri = try string(try object(physical["artifactLocation"], "artifactLocation"), "uri", what)
                XCTAssertNotNil(URL(string: uri), "\(what): \(uri) is not a URI reference")
                XCTAssertFalse(uri.contains(" "), uri)
                if let region = physical["region"] {
                    let start = try XCTUnwrap(try object(region, "region")["startLine"] as? Int)
                    XCTAssertGreaterThanOrEqual(start, 1, "§3.30.5 startLine is 1-based")
                }
            }
            let prints = try XCTUnwrap(r["partialFingerprints"] as? [String: String], "\(what).partialFingerprints")
            XCTAssertFalse(prints.isEmpty)
            XCTAssertTrue(prints.values.allSatisfy { !$0.isEmpty })
        }
        let userCA = try XCTUnwrap(rules.first { $0["id"] as? String == "android-user-ca" })
        let markdown = try XCTUnwrap((userCA["help"] as? [String: Any])?["markdown"] as? String)
        XCTAssertTrue(markdown.contains("\\<debug-overrides\\>"), "element names are not read as HTML: \(markdown)")
        XCTAssertEqual((run["properties"] as? [String: Any])?["publicSuffixList"] as? String, "bundled copy (2023-02-09)")
        XCTAssertTrue(text.contains("\"uri\" : \"file:///abs/res%20dir/xml/nsc.xml\""), text)
        XCTAssertTrue(text.contains("\"uri\" : \"set\""), "a finding without a file is placed at its set: \(text)")
    }

    func testFingerprintsIgnoreLinesAndTellFindingsApart() throws {
        func prints(_ fs: [LintFinding]) throws -> [String] {
            let log = try JSONSerialization.jsonObject(with: Data(LintReport.render(fs, format: .sarif).utf8)) as? [String: Any]
            let results = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
            return results.compactMap { ($0["partialFingerprints"] as? [String: String])?.values.first }
        }
        var moved = findings
        moved[0].line = 40
        XCTAssertEqual(try prints(findings), try prints(moved), "an alert keeps its identity when lines move")
        XCTAssertEqual(Set(try prints(findings)).count, findings.count)
    }
}
