import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Valid configurations that pin nothing, in the shapes apps ship: an empty or release-only Android config, domains
/// that only choose their trust anchors, an OkHttp pinner commented out or built empty, an nginx header commented
/// out. Each imports without rules (exit 0) and says what it configures; `lint` reads them the same way. Files that
/// are not the format at all are still refused.
final class ImportPinsNothingTests: XCTestCase {
    typealias S = ImportTestSupport
    static let folder = "Tests/Fixtures/import/"
    let suffixes = PublicSuffixList(text: "com\nexample\nnet\n")

    func importFixture(_ name: String, _ format: PolicyImportFormat) throws -> ImportResult {
        try PolicyImporter.importPolicy(format: format, contents: S.bytes(Self.folder + name), file: name, name: "app",
                                        environment: "prod")
    }

    /// Imports `name`, which must give no rule, no error finding (exit 0) and exactly the `expected` findings.
    func assertPinsNothing(_ name: String, _ format: PolicyImportFormat, _ expected: [String],
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try importFixture(name, format)
        XCTAssertEqual(r.findings.map(\.description), expected, file: file, line: line)
        XCTAssertFalse(r.findings.contains { $0.severity == .error }, file: file, line: line)
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, 0, file: file, line: line)
        XCTAssertTrue(r.yaml.contains("    policies: []\n"), r.yaml, file: file, line: line)
        XCTAssertEqual(r.undefinedNames, [], file: file, line: line)
        S.assertRoundTrip(r, file: file, line: line)
    }

    /// `line rule severity` of each finding `lint` reports on the fixture `name`.
    func lint(_ name: String) throws -> [String] {
        let bytes = try S.bytes(Self.folder + name)
        let r = try NativeLinter.lint(bytes, file: name, format: LintInputFormat.detect(file: name, contents: bytes),
                                      now: S.now, publicSuffixes: suffixes)
        return r.findings.map { "\($0.line.map(String.init) ?? "-") \($0.ruleID) \($0.severity.rawValue)" }
    }

    func testAnEmptyNetworkSecurityConfigPinsNothing() throws {
        try assertPinsNothing("nsc-empty.xml", .androidNSC, [
            "nsc-empty.xml:3: info: <network-security-config> is empty: every domain gets the platform defaults (system trust anchors, no pins)",
            "nsc-empty.xml: info: the app pins nothing in this configuration: no pins are enforced; it configures nothing (an empty <network-security-config>)",
        ])
    }

    func testAReleaseFileWithOnlyBaseConfigAndDebugOverridesPinsNothing() throws {
        try assertPinsNothing("nsc-release-base-config.xml", .androidNSC, [
            "nsc-release-base-config.xml:4: info: <base-config> sets the defaults of every domain (cleartextTrafficPermitted=\"false\"; trusts system); it holds no pins",
            "nsc-release-base-config.xml:9: warning: <debug-overrides> applies to debuggable builds only (trusts user; overridePins defaults to true here); not imported as enforcement",
            "nsc-release-base-config.xml: info: the app pins nothing in this configuration: no pins are enforced; it configures <base-config> (line 4), <debug-overrides> (line 9, debuggable builds only)",
        ])
        let base = "<?xml version=\"1.0\"?>\n<network-security-config>\n<base-config cleartextTrafficPermitted=\"true\"/>\n</network-security-config>\n"
        let cleartext = try S.run(.androidNSC, base)
        XCTAssertEqual(cleartext.findings.map(\.description), [
            "input:3: info: <base-config> sets the defaults of every domain (cleartextTrafficPermitted=\"true\"; trusts the platform's anchors); it holds no pins",
            "input: info: the app pins nothing in this configuration: no pins are enforced; it configures <base-config> (line 3)",
        ])
    }

    func testDomainsThatOnlyChooseTrustAnchorsPinNothing() throws {
        try assertPinsNothing("nsc-trust-anchors-only.xml", .androidNSC, [
            "nsc-trust-anchors-only.xml:4: info: the app pins nothing for **.shop.example (no pin-set in force; it trusts system); nothing to import for it",
            "nsc-trust-anchors-only.xml:10: info: the app pins nothing for beta.shop.example.net (no pin-set in force; it trusts system, user); nothing to import for it",
            "nsc-trust-anchors-only.xml: info: the app pins nothing in this configuration: no pins are enforced; it configures **.shop.example without a pin-set (line 4), beta.shop.example.net without a pin-set (line 10)",
        ])
    }

    func testAnOkHttpPinnerCommentedOutOrBuiltEmptyPinsNothing() throws {
        try assertPinsNothing("OkHttpPinnerCommentedOut.kt", .okhttp, [
            "OkHttpPinnerCommentedOut.kt:8: info: CertificatePinner is commented out here: this file builds no pinner, so no pins are enforced",
            "OkHttpPinnerCommentedOut.kt: info: the app pins nothing in this configuration: no pins are enforced; it configures a commented-out CertificatePinner (line 8)",
        ])
        try assertPinsNothing("OkHttpEmptyPinner.java", .okhttp, [
            "OkHttpEmptyPinner.java:8: info: CertificatePinner.Builder().build() without add(): a pinner without pins, so no pins are enforced",
            "OkHttpEmptyPinner.java: info: the app pins nothing in this configuration: no pins are enforced; it configures an empty CertificatePinner (line 8)",
        ])
        let builtDefault = try S.run(.okhttp, "val client = OkHttpClient.Builder()\n    .certificatePinner(CertificatePinner.DEFAULT)\n    .build()\n")
        XCTAssertEqual(builtDefault.findings.first?.description, "input:2: info: CertificatePinner.DEFAULT has no pins, so no pins are enforced")
    }

    func testAClientGivenAPinnerBuiltElsewhereIsRefused() throws {
        let elsewhere = try XCTUnwrap(S.failure(.okhttp, """
        import okhttp3.CertificatePinner
        // CertificatePinner: see Pinning.kt
        val client = OkHttpClient.Builder().certificatePinner(certificatePinner1).build()
        """, file: "Client.kt"))
        XCTAssertEqual(elsewhere.description, "Client.kt: no CertificatePinner.Builder().add(pattern, pins…) call with constant arguments found; "
                           + "certificatePinner(certificatePinner1) on line 3 is given a pinner built elsewhere; import the file that builds it")
        let filled = try XCTUnwrap(S.failure(.okhttp, "val b = CertificatePinner.Builder()\nfor (p in pins) b.apply(p)\n", file: "Loop.kt"))
        XCTAssertEqual(filled.message, "no CertificatePinner.Builder().add(pattern, pins…) call with constant arguments found; "
                           + "CertificatePinner.Builder() on line 1 is given its pins in a way not read")
    }

    func testACommentedOutNginxHeaderPinsNothing() throws {
        try assertPinsNothing("nginx-hpkp-commented-out.conf", .hpkp, [
            "nginx-hpkp-commented-out.conf:8: info: Public-Key-Pins is commented out here: shop.example.com does not send it, so it enforces no pins; not imported",
            "nginx-hpkp-commented-out.conf: info: the app pins nothing in this configuration: no pins are enforced; it configures a commented-out Public-Key-Pins header for shop.example.com (line 8)",
        ])
    }

    func testLintReadsTheSameFilesAsNotesNotAsUnreadable() throws {
        XCTAssertEqual(try lint("nsc-empty.xml"), ["3 native-config info", "- native-config info"])
        XCTAssertEqual(try lint("nsc-release-base-config.xml"), ["4 native-config info", "9 native-config info", "- native-config info"])
        // The user anchors of the second domain are a lint error of their own; the file is still read.
        XCTAssertEqual(try lint("nsc-trust-anchors-only.xml"),
                       ["4 native-config info", "10 native-config info", "13 android-user-ca error", "- native-config info"])
        XCTAssertEqual(try lint("OkHttpPinnerCommentedOut.kt"), ["8 native-config info", "- native-config info"])
        XCTAssertEqual(try lint("OkHttpEmptyPinner.java"), ["8 native-config info", "- native-config info"])
        XCTAssertEqual(try lint("nginx-hpkp-commented-out.conf"), ["8 native-config info", "- native-config info"])
    }

    func testFilesThatAreNotTheFormatAreStillRefused() throws {
        XCTAssertEqual(S.failure(.androidNSC, "<manifest/>")?.message, "the document element is <manifest>, expected <network-security-config>")
        XCTAssertEqual(S.failure(.okhttp, "class A { fun f() = listOf(1).add(2) }")?.message, "no CertificatePinner in this file")
        XCTAssertEqual(S.failure(.hpkp, "server {\n    # add_header X-Frame-Options DENY;\n}\n")?.message,
                       "no Public-Key-Pins or Public-Key-Pins-Report-Only header line")
    }
}
