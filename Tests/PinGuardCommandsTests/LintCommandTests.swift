import Foundation
import PinGuardCommands
import PinGuardReaders
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `lint` in-process: native files and policies, `--input-format`, the public suffix list it names, SARIF,
/// raw-key pins against a chain generated for the test, the bundled issuer catalog, and the status of each.
final class LintCommandTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory.make("pinguard-lint")
    }

    func write(_ name: String, _ text: String) throws -> String {
        try PolicyYAML.write(text, to: dir, as: name)
    }

    func lint(_ files: [String], _ configure: (inout LintCommand.Options) -> Void = { _ in }) -> CommandOutcome {
        var options = LintCommand.Options(files: files, toolVersion: "9.9.9-test", now: Date())
        configure(&options)
        return LintCommand.run(options)
    }

    func jsonFindings(_ r: CommandOutcome) throws -> [[String: Any]] {
        try XCTUnwrap(try r.json() as? [[String: Any]], r.description)
    }

    func testFailingNativeFilesAreErrorsWithFileAndLine() throws {
        let plist = fixture("lint", "ats-failing-Info.plist")
        let r = lint([plist, fixture("lint", "nsc-failing.xml"), fixture("lint", "OkHttpFailing.kt")])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(r.stdout.contains("\(plist):7: error: [ats-arbitrary-loads]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("nsc-failing.xml:6: error: [android-user-ca]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("OkHttpFailing.kt:7: error: [public-suffix-pattern]"), r.stdout)
        XCTAssertEqual(r.stderr.count, 2, "the list used, then the summary: \(r)")
        XCTAssertTrue(r.stderr[0].hasPrefix("pinguard: public suffix list: "), r.stderrText)
    }

    func testGitHubAnnotationsNameFileAndLine() {
        let r = lint([fixture("lint", "nsc-failing.xml")]) { $0.format = .github }
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(r.stdout.contains("::error file=\(fixture("lint", "nsc-failing.xml")),line=16,title=android-override-pins::"), r.stdout)
        XCTAssertEqual(r.stderr.count, 1, "no summary beside annotations: \(r)")
    }

    func testPassingNativeFilesAreCleanEvenWhenStrict() {
        let r = lint([fixture("lint", "ats-passing-Info.plist"), fixture("lint", "nsc-passing.xml"), fixture("lint", "OkHttpPassing.kt")]) {
            $0.strict = true
        }
        XCTAssertEqual(r.status, 0, r.description)
    }

    func testInputFormatOverridesDetection() throws {
        let path = try write("pins.txt", try String(contentsOfFile: fixture("lint", "nsc-failing.xml"), encoding: .utf8))
        let r = lint([path]) { $0.inputFormat = .androidNSC; $0.format = .json }
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(try jsonFindings(r).contains { $0["rule"] as? String == "android-override-pins" && $0["line"] as? Int == 16 })
        let wrong = lint([path]) { $0.inputFormat = .plist }
        XCTAssertEqual(wrong.status, 2, wrong.description)
        XCTAssertEqual(wrong.stderr.count, 1, wrong.stderrText)
        XCTAssertEqual(wrong.stdout, "", "nothing is reported from a file that does not read")
    }

    func testSARIFNamesTheListUsedAndTheToolVersion() throws {
        let r = lint([fixture("lint", "OkHttpFailing.kt")]) { $0.format = .sarif }
        XCTAssertEqual(r.status, 1, r.description)
        let line = try XCTUnwrap(r.stderr.first { $0.hasPrefix("pinguard: public suffix list:") })
        XCTAssertTrue(line.contains("bundled copy") || line.contains("system copy"), line)
        let log = try XCTUnwrap(try r.json() as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let source = try XCTUnwrap((run["properties"] as? [String: Any])?["publicSuffixList"] as? String)
        XCTAssertTrue(line.hasSuffix(source), "\(line) vs \(source)")
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["version"] as? String, "9.9.9-test")
    }

    func testExplicitListThatCannotBeReadFallsBackWithAWarning() throws {
        let r = lint([fixture("lint", "OkHttpFailing.kt")]) { $0.publicSuffixList = self.dir.appendingPathComponent("missing.dat").path }
        XCTAssertEqual(r.status, 1, "**.co.uk is still found: \(r)")
        XCTAssertTrue(r.stderr[0].hasSuffix("missing.dat cannot be read; using the default list"), r.stderrText)
        let own = try write("psl.dat", "// VERSION: 2030-01-01_00-00-00_UTC\nexample\n")
        let custom = lint([fixture("lint", "OkHttpFailing.kt")]) { $0.publicSuffixList = own; $0.format = .json }
        XCTAssertTrue(custom.stderr.contains("pinguard: public suffix list: \(own) (2030-01-01)"), custom.stderrText)
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
        let r = lint([nsc]) { $0.format = .json; $0.chains = [pki.chain("rsa")] }
        XCTAssertEqual(r.status, 1, r.description)
        let finding = try XCTUnwrap(try jsonFindings(r).first { $0["rule"] as? String == "raw-key-pin" }, r.stdout)
        XCTAssertEqual(finding["line"] as? Int, 5)
        XCTAssertEqual(finding["file"] as? String, nsc)
        let message = try XCTUnwrap(finding["message"] as? String)
        XCTAssertTrue(message.contains("raw public key of the first certificate (leaf)"), message)
        XCTAssertTrue(message.contains("its SPKI pin is \(spki)"), message)
        XCTAssertTrue((finding["hint"] as? String)?.contains("pin \(spki) instead") ?? false)

        let fixed = try write("fixed.xml", try String(contentsOfFile: nsc, encoding: .utf8).replacingOccurrences(of: raw, with: spki))
        let clean = lint([fixed]) { $0.chains = [pki.chain("rsa")] }
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
        let yaml = lint([policy]) { $0.format = .json; $0.chains = [pki.chain("rsa")] }
        XCTAssertTrue(try jsonFindings(yaml).contains { $0["rule"] as? String == "raw-key-pin" && $0["line"] as? Int == 8 },
                      yaml.stdout)
    }

    func testPolicyFilesStillNeedDistinctSetNamesAndMissingFilesAreNamed() throws {
        let a = try write("a.yml", "name: app\nenvironments: {prod: {default_policy: {pins: []}}}\n")
        let b = try write("b.yml", "name: app\nenvironments: {prod: {default_policy: {pins: []}}}\n")
        let r = lint([a, fixture("lint", "OkHttpPassing.kt"), b])
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertTrue(r.stderrText.contains("is already used by \(a)"), r.stderrText)
        let missing = lint([dir.appendingPathComponent("gone.txt").path])
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertTrue(missing.stderrText.contains("gone.txt: no such file"), missing.stderrText)
    }

    func testBrokenChainFileIsBadInputInOneLine() throws {
        let chain = try write("chain.pem", "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n")
        let r = lint([fixture("lint", "OkHttpPassing.kt")]) { $0.chains = [chain] }
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stderr.count, 1, r.stderrText)
    }

    func testAnR10OnlyPolicyIsFlaggedWithTheBundledIssuerCatalog() throws {
        let file = try write("r10.yml", """
        name: r10-app
        environments:
          prod:
            policies:
              - pattern: "api.example.com"
                policy:
                  pins:
                    - {type: spki, hash: "K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=", role: primary, scope: intermediate}
                    - {type: spki, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", role: backup, scope: leaf}

        """)
        let r = lint([file])
        XCTAssertEqual(r.status, 1, r.description)
        XCTAssertTrue(r.stdout.contains("\(file):8: error: [retired-issuer] pins Let's Encrypt R10, an intermediate Let's Encrypt no longer issues from"),
                      r.stdout)
        XCTAssertTrue(r.stdout.contains("\(file):8: warning: [issuer-pool-coverage] pins Let's Encrypt R10; Let's Encrypt issues from YR1, YR2: 2 of 2 renewals break this pin"),
                      r.stdout)
        let sarif = lint([file]) { $0.format = .sarif }
        XCTAssertTrue(sarif.stdout.contains("\"id\" : \"issuer-pool-coverage\"") || sarif.stdout.contains("\"id\":\"issuer-pool-coverage\""),
                      String(sarif.stdout.prefix(2_000)))
    }

    func testPinSetsExpireAsOfTheGivenTime() throws {
        let file = try write("expiring.yml", """
        name: app
        environments:
          prod:
            policies:
              - pattern: "api.example.com"
                policy:
                  expires: 2030-06-30
                  pins:
                    - {type: spki, hash: "K7rZOrXHknnsEhUH8nLL4MZkejquUuIvOIr6tCa0rbo=", role: primary}
                    - {type: spki, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", role: backup}

        """)
        func rules(at day: String) throws -> Set<String> {
            let r = lint([file]) { $0.format = .json; $0.now = RFC3339.parse("\(day)T00:00:00Z")! }
            return Set(try jsonFindings(r).compactMap { $0["rule"] as? String })
        }
        XCTAssertFalse(try rules(at: "2030-01-01").contains { $0.contains("expir") })
        XCTAssertTrue(try rules(at: "2030-06-15").contains { $0.contains("expir") }, "within 30 days of the expiry")
    }
}
