import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// What the import end-to-end tests check after each `pinguard import`: its output and findings, `lint` of the YAML,
/// and the decision `probe --json` reaches under it.
extension ImportEndToEndTests {
    /// What a probe of one host under one imported policy decided.
    struct Decision {
        let evaluation: [String: Any]
        let trusted: Bool?
    }

    /// Asserts `pinguard import` exited 0, wrote YAML to stdout and each finding (`needle` locates its source
    /// line, `text` follows `file:line: `) to stderr, and nothing else there but findings.
    func assertImported(_ imp: ImportWorld.Imported, findings: [(needle: String, text: String)],
                                file: StaticString = #filePath, line: UInt = #line) {
        let r = imp.result
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        XCTAssertTrue(r.stdout.hasPrefix("# Imported by `pinguard import --format "), "\(r)", file: file, line: line)
        XCTAssertTrue(r.stdout.contains("\nenvironments:\n  prod:\n    policies:\n"), "\(r)", file: file, line: line)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        if findings.isEmpty { XCTAssertEqual(r.stderr, "", file: file, line: line) }
        for l in lines {
            let rest = l.hasPrefix(imp.source + ":") ? l.dropFirst(imp.source.count + 1) : ""
            let ok = rest.range(of: #"^([0-9]+: )?(info|warning|error): "#, options: .regularExpression) != nil
            XCTAssertTrue(ok, "stderr line is not a finding: \(l)", file: file, line: line)
            // The YAML repeats each finding as a header comment, never as YAML.
            XCTAssertTrue(r.stdout.contains("#   \(l)\n"), "finding not in the YAML header: \(l)", file: file, line: line)
        }
        for f in findings {
            guard let at = ImportSources.line(of: f.needle, in: imp.sourceText) else {
                XCTFail("\(f.needle) not in the source", file: file, line: line)
                continue
            }
            let prefix = "\(imp.source):\(at): \(f.text)"
            XCTAssertTrue(lines.contains { $0.hasPrefix(prefix) }, "no finding \(prefix) in\n\(r.stderr)", file: file, line: line)
        }
    }

    /// Runs `pinguard lint --format json` and compares `severity rule pattern` of every finding (in any order).
    func assertLint(_ yaml: String, status: Int32, _ expected: [String],
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let w = try ImportWorld.shared()
        let (r, findings) = try w.lint(yaml)
        XCTAssertEqual(r.status, status, "\(r)", file: file, line: line)
        let got = findings.map { "\($0["severity"] as? String ?? "?") \($0["rule"] as? String ?? "?") \($0["pattern"] as? String ?? "-")" }
        XCTAssertEqual(got.sorted(), expected.sorted(), "\(r.stdout)", file: file, line: line)
        for f in findings { XCTAssertEqual(f["file"] as? String, yaml, file: file, line: line) }
    }

    /// Probes `host` with the imported policy and asserts the decision, the pattern (nil: none) and the exit status.
    @discardableResult
    func decide(_ w: ImportWorld, _ host: String, _ imp: ImportWorld.Imported, _ verdict: String, _ reason: String,
                        pattern: String?, caFile: String? = nil, file: StaticString = #filePath,
                        line: UInt = #line) throws -> Decision {
        let (r, json) = try w.probe(host, policy: imp.yaml, caFile: caFile)
        XCTAssertEqual(r.status, verdict == "reject" ? 1 : 0, "\(host): \(r)", file: file, line: line)
        XCTAssertEqual((json["probe"] as? [String: Any])?["success"] as? Bool, true, "\(r)", file: file, line: line)
        let list = try XCTUnwrap(json["evaluations"] as? [[String: Any]], "\(r)", file: file, line: line)
        XCTAssertEqual(list.count, 1, "\(r)", file: file, line: line)
        let e = try XCTUnwrap(list.first, file: file, line: line)
        let name = try PolicyParser.parse(try String(contentsOfFile: imp.yaml, encoding: .utf8), file: imp.yaml).name
        XCTAssertEqual(e["policy_set"] as? String, name, file: file, line: line)
        XCTAssertEqual(e["verdict"] as? String, verdict, "\(host): \(e)", file: file, line: line)
        XCTAssertEqual(e["reason"] as? String, reason, "\(host): \(e)", file: file, line: line)
        XCTAssertEqual(e["pattern"] as? String, pattern, "\(host): \(e)", file: file, line: line)
        return Decision(evaluation: e, trusted: json["trusted"] as? Bool)
    }

    func matchedHashes(_ d: Decision) -> [String] {
        (d.evaluation["matched_pins"] as? [[String: Any]] ?? []).compactMap { $0["hash"] as? String }
    }

    func reserveHashes(_ d: Decision) -> [String] {
        (d.evaluation["reserve_pin_list"] as? [[String: Any]] ?? []).compactMap { $0["hash"] as? String }
    }
}
