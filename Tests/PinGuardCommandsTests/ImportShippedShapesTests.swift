import Foundation
import PinGuardCommands
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// `import` and `lint` in-process on pin configurations as apps ship them: files that pin nothing are status 0
/// and say what they configure, values from elsewhere end in one line of `--define` flags that then import,
/// TrustKit's first API is read, and a missing bundled CA or a Markdown file is named in the last line.
final class ImportShippedShapesTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory.make("pinguard-shapes")
    }

    func importing(_ file: String, _ format: PolicyImportFormat, define: [String] = []) -> CommandOutcome {
        var options = ImportCommand.Options(file: file)
        options.format = format
        options.define = define
        return ImportCommand.run(options)
    }

    func lint(_ file: String) -> CommandOutcome {
        LintCommand.run(LintCommand.Options(files: [file], toolVersion: "test", now: Date()))
    }

    func testConfigurationsThatPinNothingAreStatusZeroForImportAndLint() throws {
        let nothing = "info: the app pins nothing in this configuration: no pins are enforced; it configures"
        let cases: [(file: String, format: PolicyImportFormat, stderr: [String], lint: Int32)] = [
            ("nsc-empty.xml", .androidNSC, [
                ":3: info: <network-security-config> is empty: every domain gets the platform defaults (system trust anchors, no pins)",
                ": \(nothing) nothing (an empty <network-security-config>)",
            ], 0),
            ("nsc-release-base-config.xml", .androidNSC, [
                ":4: info: <base-config> sets the defaults of every domain (cleartextTrafficPermitted=\"false\"; trusts system); it holds no pins",
                ":9: warning: <debug-overrides> applies to debuggable builds only (trusts user; overridePins defaults to true here); not imported as enforcement",
                ": \(nothing) <base-config> (line 4), <debug-overrides> (line 9, debuggable builds only)",
            ], 0),
            ("nsc-trust-anchors-only.xml", .androidNSC, [
                ":4: info: the app pins nothing for **.shop.example (no pin-set in force; it trusts system); nothing to import for it",
                ":10: info: the app pins nothing for beta.shop.example.net (no pin-set in force; it trusts system, user); nothing to import for it",
                ": \(nothing) **.shop.example without a pin-set (line 4), beta.shop.example.net without a pin-set (line 10)",
            ], 1),
            ("OkHttpPinnerCommentedOut.kt", .okhttp, [
                ":8: info: CertificatePinner is commented out here: this file builds no pinner, so no pins are enforced",
                ": \(nothing) a commented-out CertificatePinner (line 8)",
            ], 0),
            ("OkHttpEmptyPinner.java", .okhttp, [
                ":8: info: CertificatePinner.Builder().build() without add(): a pinner without pins, so no pins are enforced",
                ": \(nothing) an empty CertificatePinner (line 8)",
            ], 0),
            ("nginx-hpkp-commented-out.conf", .hpkp, [
                ":8: info: Public-Key-Pins is commented out here: shop.example.com does not send it, so it enforces no pins; not imported",
                ": \(nothing) a commented-out Public-Key-Pins header for shop.example.com (line 8)",
            ], 0),
        ]
        for c in cases {
            let path = fixture("import", c.file)
            let r = importing(path, c.format)
            XCTAssertEqual(r.status, 0, "\(c.file): \(r)")
            XCTAssertEqual(r.stderr, c.stderr.map { path + $0 }, c.file)
            XCTAssertTrue(r.stdout.contains("    policies: []\n"), "\(c.file): \(r.stdout)")
            let lint = lint(path)
            XCTAssertEqual(lint.status, c.lint, "\(c.file): \(lint)")
            XCTAssertTrue(lint.stdout.contains("\(path): info: [native-config] the app pins nothing in this configuration: no pins are enforced"),
                          "\(c.file): \(lint.stdout)")
        }
        // The user anchors of the second domain are what lint fails on, not the file.
        let anchors = lint(fixture("import", "nsc-trust-anchors-only.xml"))
        XCTAssertTrue(anchors.stdout.contains("nsc-trust-anchors-only.xml:13: error: [android-user-ca]"), anchors.stdout)
    }

    func testNamesFromElsewhereEndInOneLineOfDefinesThatImport() throws {
        let pins = ["OOp/9QsdNx9mjL8u1dO/bVoURz3wB/0XfUxzOoiES5k=", "Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144="]
        let kotlin = fixture("import", "OkHttpBuildConfigPins.kt")
        let missing = importing(kotlin, .okhttp)
        XCTAssertEqual(missing.status, 2, missing.description)
        XCTAssertEqual(missing.stderr.first, "\(kotlin):8: warning: the pattern of this add() is not a constant string (BuildConfig.API_URL unresolved: "
                           + "not defined in this file; supply it with --define NAME=VALUE); call not imported")
        XCTAssertEqual(missing.stderr.suffix(2), [
            "pinguard: \(kotlin): nothing to import: no usable okhttp pin configuration found",
            "pinguard: supply with: --define BuildConfig.API_URL=VALUE --define BuildConfig.CERTIFICATE_PIN=VALUE --define Constants.CDN_HOST=VALUE "
                + "--define Constants.PIN_1=VALUE --define Constants.PIN_2=VALUE --define certificatePinner1=VALUE --define BuildConfig.FLAVOR=VALUE",
        ])
        let values = ["BuildConfig.API_URL=https://api.shop.example/v2", "BuildConfig.CERTIFICATE_PIN=sha256/\(pins[0])",
                      "Constants.CDN_HOST=cdn.shop.example", "Constants.PIN_1=sha256/\(pins[0])", "Constants.PIN_2=sha256/\(pins[1])",
                      "certificatePinner1=sha256/\(pins[0]),sha256/\(pins[1])", "BuildConfig.FLAVOR=staging"]
        let defined = importing(kotlin, .okhttp, define: values)
        XCTAssertEqual(defined.status, 0, defined.description)
        for host in ["api", "cdn", "static", "staging"] {
            XCTAssertTrue(defined.stdout.contains("- pattern: \(host).shop.example\n"), "\(host): \(defined.stdout)")
        }
        XCTAssertFalse(defined.stderrText.contains("supply with"), defined.stderrText)

        let swift = fixture("import", "TrustKitFromBuildSettings.swift")
        let trustkit = importing(swift, .trustkit)
        XCTAssertEqual(trustkit.status, 2, trustkit.description)
        XCTAssertEqual(trustkit.stderr.suffix(2), [
            "pinguard: \(swift):6: no entry of TSKPinnedDomains could be read (see the warnings); nothing to import",
            "pinguard: supply with: --define apiUrlString=VALUE --define mainPublicKey=VALUE --define backupPublicKey=VALUE",
        ])
        let swiftDefined = importing(swift, .trustkit, define: ["apiUrlString=https://api.shop.example", "mainPublicKey=\(pins[0])",
                                                               "backupPublicKey=\(pins[1])"])
        XCTAssertEqual(swiftDefined.status, 0, swiftDefined.description)
        XCTAssertTrue(swiftDefined.stdout.contains("- pattern: api.shop.example\n"), swiftDefined.stdout)
    }

    func testTrustKitFirstAPIImportsFromSwiftAndObjectiveC() throws {
        for name in ["TrustKitFirstAPI.swift", "TrustKitFirstAPI.m"] {
            let r = importing(fixture("import", name), .trustkit)
            XCTAssertEqual(r.status, 0, "\(name): \(r)")
            XCTAssertEqual(r.stderr, [], name)
            XCTAssertTrue(r.stdout.contains("- pattern: \"**.api.shop.example\"\n"), "\(name): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("Wrrfe2EtODjDI/VP6ptwssbZgI8hzw++em7VFIT0144="), "\(name): \(r.stdout)")
        }
    }

    func testAMissingBundledCAIsNamedInTheLastLine() throws {
        let xmlDir = dir.appendingPathComponent("res/xml")
        try FileManager.default.createDirectory(at: xmlDir, withIntermediateDirectories: true)
        let xml = xmlDir.appendingPathComponent("network_security_config.xml").path
        try FileManager.default.copyItem(atPath: fixture("import", "nsc-bundled-ca.xml"), toPath: xml)
        let looked = "no \(dir.appendingPathComponent("res/raw").path)/my_ca.{pem,crt,cer,der}; give the app's res/ directory with --res DIR"
        let r = importing(xml, .androidNSC)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stderr, [
            "\(xml):5: warning: **.api.shop.example trusts only bundled CAs (CA pinning); not imported because @raw/my_ca could not be read",
            "\(xml):7: error: @raw/my_ca (trust anchor of **.api.shop.example) not found: \(looked)",
            "pinguard: \(xml): nothing to import: @raw/my_ca (line 7), the CA **.api.shop.example is pinned to, was not found: \(looked)",
        ])
        let lint = lint(xml)
        XCTAssertEqual(lint.status, 1, lint.description)
        XCTAssertTrue(lint.stdout.contains("\(xml):7: error: [native-config] @raw/my_ca (trust anchor of **.api.shop.example) not found"), lint.stdout)
    }

    func testAMarkdownFileGivenAsHeadersSaysSo() throws {
        let notes = fixture("import", "hpkp-rollout-notes.md")
        let r = importing(notes, .hpkp)
        XCTAssertEqual(r.status, 2, r.description)
        XCTAssertEqual(r.stderr.last, "pinguard: \(notes): nothing to import: no usable hpkp pin configuration found; "
                           + "this looks like Markdown (a README), not HTTP headers or a server configuration")
    }
}
