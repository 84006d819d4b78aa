import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard lint` through the built binary: the flags reach the command, the report goes to stdout and the list
/// used and the summary to stderr, and the exit statuses are the command's (64 for a flag the parser refuses).
/// What lint finds is tested in-process (PinGuardCommandsTests).
final class CLILintTests: XCTestCase {
    func fixture(_ name: String) -> String {
        Repository.root.appendingPathComponent("Tests/Fixtures/lint/\(name)").path
    }

    func testFailingNativeFilesExitOneWithTheReportOnStdoutAndTheSummaryOnStderr() throws {
        let plist = fixture("ats-failing-Info.plist")
        let r = try runPinguard(args: ["lint", plist, fixture("nsc-failing.xml"), fixture("OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(r.stdout.contains("\(plist):7: error: [ats-arbitrary-loads]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("OkHttpFailing.kt:7: error: [public-suffix-pattern]"), r.stdout)
        XCTAssertFalse(r.stdout.contains("pinguard: public suffix list: "), r.stdout)
        let stderr = r.stderr.split(separator: "\n")
        XCTAssertEqual(stderr.count, 2, r.stderr)
        XCTAssertTrue(stderr[0].hasPrefix("pinguard: public suffix list: "), r.stderr)
        let clean = try runPinguard(args: ["lint", "--strict", fixture("ats-passing-Info.plist"), fixture("nsc-passing.xml")])
        XCTAssertEqual(clean.status, 0, clean.description)
    }

    func testFormatInputFormatAndChainReachTheCommand() throws {
        let dir = try TemporaryDirectory.make("pinguard-cli-lint")
        let path = try PolicyYAML.write(try String(contentsOfFile: fixture("nsc-failing.xml"), encoding: .utf8), to: dir, as: "pins.txt")
        let r = try runPinguard(args: ["lint", "--input-format", "android-nsc", "--format", "json", path])
        XCTAssertEqual(r.status, 1, r.description)
        let findings = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
        XCTAssertTrue(findings.contains { $0["rule"] as? String == "android-override-pins" && $0["line"] as? Int == 16 })
        let chain = try PolicyYAML.write("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n", to: dir, as: "chain.pem")
        let broken = try runPinguard(args: ["lint", "--chain", chain, fixture("OkHttpPassing.kt")])
        XCTAssertEqual(broken.status, 2, broken.description)
        XCTAssertEqual(broken.stderr.split(separator: "\n").count, 1, broken.stderr)
        let unknown = try runPinguard(args: ["lint", "--input-format", "pdf", path])
        XCTAssertEqual(unknown.status, 64, unknown.description)
        let neither = try runPinguard(args: ["lint"])
        XCTAssertEqual(neither.status, 64, neither.description)
        XCTAssertTrue(neither.stderr.contains("give policy files or --config FILE"), neither.stderr)
    }

    func testTheSARIFLogNamesTheBinarysVersion() throws {
        let r = try runPinguard(args: ["lint", "--format", "sarif", "--docs-url", "https://docs.example/pinguard", fixture("OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, r.description)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["version"] as? String, try runPinguard(args: ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(driver["informationUri"] as? String, "https://docs.example/pinguard")
    }
}
