import Foundation
import XCTest
import PinGuardCore
@testable import PinGuardReports
import PinGuardReaders
import PinGuardReadersTestSupport

/// `lint` on the files apps ship: findings name the native file and the line of the setting concerned, and
/// each platform guardrail fires on a failing fixture and stays quiet on a passing one.
final class LintNativeFilesTests: XCTestCase {
    let suffixes = PublicSuffixList(text: "com\norg\nuk\nco.uk\ngithub.io\n")

    func lint(_ relative: String, format: LintInputFormat? = nil) throws -> NativeLintResult {
        let bytes = try ImportTestSupport.bytes(relative)
        let kind = format ?? LintInputFormat.detect(file: relative, contents: bytes)
        return try NativeLinter.lint(bytes, file: relative, format: kind, now: ImportTestSupport.now, publicSuffixes: suffixes)
    }

    /// `line rule severity` of every finding, in report order.
    func summary(_ r: NativeLintResult) -> [String] {
        r.findings.map { "\($0.line.map(String.init) ?? "-") \($0.ruleID) \($0.severity.rawValue)" }
    }

    func testATSGuardrailsFireAtTheirPlistLines() throws {
        let r = try lint("Tests/Fixtures/lint/ats-failing-Info.plist")
        XCTAssertEqual(summary(r), [
            "7 ats-arbitrary-loads error",
            "13 ats-insecure-http-exception error",
            "16 ats-tls-minimum-exception error",
            "27 no-backup-pin error",
            "31 public-suffix-pattern error",
        ])
        XCTAssertTrue(r.findings.allSatisfy { $0.file == "Tests/Fixtures/lint/ats-failing-Info.plist" })
        XCTAssertTrue(r.findings[1].message.contains("although api.example.com is pinned"), r.findings[1].message)
    }

    func testATSPassingFixtureIsClean() throws {
        XCTAssertEqual(summary(try lint("Tests/Fixtures/lint/ats-passing-Info.plist")), [])
    }

    func testATSExceptionOnAnUnpinnedDomainIsAWarning() throws {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>NSAppTransportSecurity</key>
          <dict>
            <key>NSAllowsArbitraryLoads</key><true/>
            <key>NSAllowsArbitraryLoadsInWebContent</key><true/>
            <key>NSExceptionDomains</key>
            <dict>
              <key>legacy.example.org</key>
              <dict>
                <key>NSIncludesSubdomains</key><true/>
                <key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>
                <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string>
              </dict>
            </dict>
          </dict>
        </dict>
        </plist>
        """
        let r = try NativeLinter.lint(Array(plist.utf8), file: "Info.plist", format: .plist, now: ImportTestSupport.now,
                                      publicSuffixes: suffixes)
        XCTAssertEqual(summary(r), [
            "6 ats-arbitrary-loads warning",
            "13 ats-insecure-http-exception warning",
            "14 ats-tls-minimum-exception warning",
            "- native-config info",
        ])
        XCTAssertTrue(r.findings[0].message.contains("iOS 10 and later ignore it"), r.findings[0].message)
        XCTAssertTrue(r.policySets.isEmpty)
    }

    func testAndroidGuardrailsFireAtTheirXMLLines() throws {
        let r = try lint("Tests/Fixtures/lint/nsc-failing.xml")
        XCTAssertEqual(summary(r), [
            "3 android-cleartext-traffic error",
            "6 android-user-ca error",
            "10 prod-system-trust-fallback warning",
            "16 android-override-pins error",
            "19 android-cleartext-traffic error",
            "22 no-backup-pin error",
        ])
        XCTAssertTrue(r.findings[0].message.contains("pinned example.com"), r.findings[0].message)
    }

    func testAndroidPassingFixtureHasNoWarnings() throws {
        let r = try lint("Tests/Fixtures/lint/nsc-passing.xml")
        XCTAssertEqual(summary(r), ["3 native-config info", "15 native-config info"], "the CT note; debug-overrides may trust user CAs")
        XCTAssertTrue(r.findings[0].message.contains("Android 17 checks it by default"), r.findings[0].message)
        XCTAssertEqual(LintReport.exitCode(r.findings, strict: true), 0)
    }

    func testAndroidSettingsThatReachNoPinnedDomainAreWarnings() throws {
        let xml = """
        <network-security-config>
          <domain-config cleartextTrafficPermitted="true">
            <domain>plain.example.org</domain>
            <trust-anchors><certificates src="system" overridePins="true"/></trust-anchors>
          </domain-config>
        </network-security-config>
        """
        let r = try NativeLinter.lint(Array(xml.utf8), file: "network_security_config.xml", format: .androidNSC,
                                      now: ImportTestSupport.now, publicSuffixes: suffixes)
        XCTAssertEqual(summary(r).filter { !$0.contains("native-config") },
                       ["2 android-cleartext-traffic warning", "4 android-override-pins warning"])
    }

    func testOkHttpPublicSuffixPatternAndSinglePinAtCallLines() throws {
        XCTAssertEqual(summary(try lint("Tests/Fixtures/lint/OkHttpFailing.kt")),
                       ["7 public-suffix-pattern error", "10 no-backup-pin error"])
        XCTAssertEqual(summary(try lint("Tests/Fixtures/lint/OkHttpPassing.kt")), [])
    }

    func testShippedExamplesOfEveryFormatAreLintedAtTheirLines() throws {
        let trustkit = try lint("policies/sources/trustkit-Info.plist")
        XCTAssertTrue(summary(trustkit).contains("46 prod-system-trust-fallback warning"), "\(summary(trustkit))")
        XCTAssertTrue(summary(trustkit).contains("46 native-config warning"), "TSKEnforcePinning false: \(summary(trustkit))")
        let ats = try lint("policies/sources/nspinneddomains-Info.plist")
        XCTAssertTrue(summary(ats).contains("30 ca-pin warning"), "\(summary(ats))")
        let hpkp = try lint("policies/sources/hpkp-headers.txt")
        XCTAssertTrue(summary(hpkp).contains("8 prod-system-trust-fallback warning"), "Report-Only: \(summary(hpkp))")
        let okhttp = try lint("policies/sources/ApiClient.kt")
        XCTAssertEqual(okhttp.policySets.first?.environments["prod"]?.rules.first?.line, 13)
        for r in [trustkit, ats, hpkp, okhttp] {
            XCTAssertFalse(r.findings.contains { $0.rule == .noBackupRole }, "native formats have no roles")
            XCTAssertEqual(r.findings.compactMap(\.line), r.findings.compactMap(\.line).sorted())
        }
    }

    func testTrustKitSourceAndJSONAreRead() throws {
        let json = """
        {"TSKSwizzleNetworkDelegates": true,
         "TSKPinnedDomains": {
           "api.example.com": {"TSKPublicKeyHashes": ["\(ImportTestSupport.h[0])"]}
         }}
        """
        let r = try NativeLinter.lint(Array(json.utf8), file: "trustkit.json", format: .trustkit, now: ImportTestSupport.now,
                                      publicSuffixes: suffixes)
        XCTAssertTrue(r.findings.contains { $0.rule == .nativeConfig && $0.severity == .error && $0.line == 3 },
                      "TrustKit refuses a single pin: \(summary(r))")
    }

    func testTrustKitIncludeSubdomainsOnAPublicSuffixIsFoundAtItsKey() throws {
        let json = """
        {"TSKSwizzleNetworkDelegates": true,
         "TSKPinnedDomains": {
           "github.io": {"TSKIncludeSubdomains": true,
                         "TSKPublicKeyHashes": ["\(ImportTestSupport.h[0])", "\(ImportTestSupport.h[1])"]},
           "example.github.io": {"TSKIncludeSubdomains": true,
                                 "TSKPublicKeyHashes": ["\(ImportTestSupport.h[0])", "\(ImportTestSupport.h[1])"]}
         }}
        """
        let r = try NativeLinter.lint(Array(json.utf8), file: "trustkit.json", format: .trustkit, now: ImportTestSupport.now,
                                      publicSuffixes: suffixes)
        XCTAssertEqual(r.findings.filter { $0.rule == .publicSuffixPattern }.map(\.line), [3], "\(summary(r))")
    }

    func testMalformedNativeFilesAreBadInput() {
        for (format, text) in [(LintInputFormat.androidNSC, "<network-security-config><domain-config>"),
                               (.plist, "<plist><dict><key>a</key></dict></plist>"),
                               (.androidNSC, "<manifest/>")] {
            XCTAssertThrowsError(try NativeLinter.lint(Array(text.utf8), file: "f", format: format, now: ImportTestSupport.now,
                                                       publicSuffixes: suffixes), "\(format)")
        }
    }

    func testFormatDetection() {
        let cases: [(String, String, LintInputFormat)] = [
            ("policies/app.yml", "name: x", .policy),
            ("Info.plist", "<plist/>", .plist),
            ("res/xml/network_security_config.xml", "<network-security-config/>", .androidNSC),
            ("App/Info.xml", "<?xml?><plist>", .plist),
            ("ApiClient.kt", "", .okhttp),
            ("Pinning.java", "", .okhttp),
            ("AppDelegate.swift", "", .trustkit),
            ("trustkit.json", "{\"TSKPinnedDomains\": {}}", .trustkit),
            ("ats.json", "{\"NSAppTransportSecurity\": {}}", .plist),
            ("headers.txt", "Host: a.example.com\nPublic-Key-Pins: pin-sha256=\"x\"", .hpkp),
            ("site.conf", "server {\n  add_header Public-Key-Pins 'pin-sha256=\"x\"; max-age=10';\n}", .hpkp),
            ("policy", "# Public-Key-Pins is not a header here\nname: x", .policy),
            ("noext", "bplist00", .plist),
        ]
        for (file, text, expected) in cases {
            XCTAssertEqual(LintInputFormat.detect(file: file, contents: Array(text.utf8)), expected, file)
        }
    }
}
