import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard lint` on native files through the built binary: exit statuses, `--input-format`, the line naming
/// the public suffix list, SARIF output, and raw-key pins found against a chain generated for the test.
final class CLILintNativeTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func fixture(_ name: String) -> String {
        Repository.root.appendingPathComponent("Tests/PinGuardCoreTests/Fixtures/lint/\(name)").path
    }

    func jsonFindings(_ r: CommandResult) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.description)
    }

    func testFailingNativeFilesExitOneWithFileAndLine() throws {
        let plist = fixture("ats-failing-Info.plist")
        let r = try runPinguard(args: ["lint", plist, fixture("nsc-failing.xml"), fixture("OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(r.stdout.contains("\(plist):7: error: [ats-arbitrary-loads]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("nsc-failing.xml:6: error: [android-user-ca]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("OkHttpFailing.kt:7: error: [public-suffix-pattern]"), r.stdout)
        XCTAssertTrue(r.stderr.contains("pinguard: public suffix list: "), r.stderr)
        let github = try runPinguard(args: ["lint", "--format", "github", fixture("nsc-failing.xml")])
        XCTAssertEqual(github.status, 1, github.description)
        XCTAssertTrue(github.stdout.contains("::error file=\(fixture("nsc-failing.xml")),line=16,title=android-override-pins::"), github.stdout)
    }

    func testPassingNativeFilesExitZero() throws {
        let r = try runPinguard(args: ["lint", "--strict", fixture("ats-passing-Info.plist"), fixture("nsc-passing.xml"),
                                       fixture("OkHttpPassing.kt")])
        XCTAssertEqual(r.status, 0, r.description)
    }

    func testInputFormatOverridesDetection() throws {
        let path = try write("pins.txt", try String(contentsOfFile: fixture("nsc-failing.xml"), encoding: .utf8))
        let r = try runPinguard(args: ["lint", "--input-format", "android-nsc", "--format", "json", path])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(try jsonFindings(r).contains { $0["rule"] as? String == "android-override-pins" && $0["line"] as? Int == 16 })
        let wrong = try runPinguard(args: ["lint", "--input-format", "plist", path])
        XCTAssertEqual(wrong.status, 2, wrong.description)
        XCTAssertEqual(wrong.stderr.split(separator: "\n").count, 1, wrong.stderr)
        let unknown = try runPinguard(args: ["lint", "--input-format", "pdf", path])
        XCTAssertEqual(unknown.status, 64, unknown.description)
    }

    func testBundledPublicSuffixListIsUsedAndNamed() throws {
        let r = try runPinguard(args: ["lint", "--format", "sarif", fixture("OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, r.description)
        let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.hasPrefix("pinguard: public suffix list:") })
        XCTAssertTrue(line.contains("bundled copy") || line.contains("system copy"), String(line))
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let source = try XCTUnwrap((run["properties"] as? [String: Any])?["publicSuffixList"] as? String)
        XCTAssertTrue(line.hasSuffix(source), "\(line) vs \(source)")
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["version"] as? String, try runPinguard(args: ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testExplicitListThatCannotBeReadFallsBackWithAWarning() throws {
        let r = try runPinguard(args: ["lint", "--public-suffix-list", dir.appendingPathComponent("missing.dat").path,
                                       fixture("OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, "**.co.uk is still found: \(r)")
        XCTAssertTrue(r.stderr.contains("missing.dat cannot be read; using the default list"), r.stderr)
        let own = try write("psl.dat", "// VERSION: 2030-01-01_00-00-00_UTC\nexample\n")
        let custom = try runPinguard(args: ["lint", "--public-suffix-list", own, fixture("OkHttpFailing.kt"), "--format", "json"])
        XCTAssertTrue(custom.stderr.contains("public suffix list: \(own) (2030-01-01)"), custom.stderr)
        XCTAssertFalse(try jsonFindings(custom).contains { $0["rule"] as? String == "public-suffix-pattern" })
    }

    func testRawKeyPinIsNamedWithTheSPKIPinItShouldBe() throws {
        let pki = try TestPKI.shared()
        let leaf = pki.certificate("rsa")
        let raw = try OpenSSLTool.rawRSAKeySHA256(certificate: leaf)
        let spki = try OpenSSLTool.spkiSHA256(certificate: leaf)
        let reserve = try OpenSSLTool.spkiSHA256(privateKey: pki.reserveKey)
        XCTAssertNotEqual(raw, spki)
        let nsc = try write("network_security_config.xml", """
        <network-security-config>
            <domain-config>
                <domain>rsa.pinguard.test</domain>
                <pin-set>
                    <pin digest="SHA-256">\(raw)</pin>
                    <pin digest="SHA-256">\(reserve)</pin>
                </pin-set>
            </domain-config>
        </network-security-config>
        """)
        let r = try runPinguard(args: ["lint", "--format", "json", "--chain", pki.chain("rsa"), nsc])
        XCTAssertEqual(r.status, 1, r.description)
        let finding = try XCTUnwrap(try jsonFindings(r).first { $0["rule"] as? String == "raw-key-pin" }, r.stdout)
        XCTAssertEqual(finding["line"] as? Int, 5)
        XCTAssertEqual(finding["file"] as? String, nsc)
        let message = try XCTUnwrap(finding["message"] as? String)
        XCTAssertTrue(message.contains("raw public key of the first certificate (leaf)"), message)
        XCTAssertTrue(message.contains("its SPKI pin is \(spki)"), message)
        XCTAssertTrue((finding["hint"] as? String)?.contains("pin \(spki) instead") ?? false)

        let fixed = try write("fixed.xml", try String(contentsOfFile: nsc, encoding: .utf8).replacingOccurrences(of: raw, with: spki))
        let clean = try runPinguard(args: ["lint", "--chain", pki.chain("rsa"), fixed])
        XCTAssertEqual(clean.status, 0, clean.description)

        let policy = try write("policy.yml", """
        name: app
        environments:
          prod:
            policies:
              - pattern: rsa.pinguard.test
                policy:
                  pins:
                    - {hash: "\(raw)"}
                    - {hash: "\(reserve)", role: backup}
        """)
        let yaml = try runPinguard(args: ["lint", "--format", "json", "--chain", pki.chain("rsa"), policy])
        XCTAssertTrue(try jsonFindings(yaml).contains { $0["rule"] as? String == "raw-key-pin" && $0["line"] as? Int == 8 },
                      yaml.stdout)
    }

    func testPolicyFilesStillNeedDistinctSetNamesAndMissingFilesAreNamed() throws {
        let a = try write("a.yml", "name: app\nenvironments: {prod: {default_policy: {pins: []}}}\n")
        let b = try write("b.yml", "name: app\nenvironments: {prod: {default_policy: {pins: []}}}\n")
        let r = try runPinguard(args: ["lint", a, fixture("OkHttpPassing.kt"), b])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderr.contains("is already used by \(a)"), r.stderr)
        let missing = try runPinguard(args: ["lint", dir.appendingPathComponent("gone.txt").path])
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertTrue(missing.stderr.contains("gone.txt: no such file"), missing.stderr)
    }

    func testBrokenChainFileIsBadInput() throws {
        let chain = try write("chain.pem", "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n")
        let r = try runPinguard(args: ["lint", "--chain", chain, fixture("OkHttpPassing.kt")])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }
}
