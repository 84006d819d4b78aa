import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

/// Pins an app ships but never enforces (domains Android never matches, report-only settings), configurations that
/// pin nothing, and HPKP headers as servers configure them.
final class ImportUnenforcedPinsTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func nsc(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<network-security-config>\n\(body)\n</network-security-config>\n"
    }

    func testAndroidDomainsWithSchemePathPortOrSlashAreNeverEnforced() throws {
        let r = try S.run(.androidNSC, nsc("""
        <domain-config>
            <domain>https://api.example.com</domain>
            <domain>cdn.example.com/</domain>
            <domain>pay.example.com:8443</domain>
            <domain>ok.example.com</domain>
            <pin-set><pin digest="SHA-256">\(h[0])</pin><pin digest="SHA-256">\(h[1])</pin></pin-set>
        </domain-config>
        """))
        let never = S.findings(r, containing: "is never matched")
        XCTAssertEqual(never.map(\.line), [4, 5, 6])
        XCTAssertTrue(never.allSatisfy { $0.message.contains("its pins are never enforced") && $0.severity == .warning })
        XCTAssertTrue(S.findings(r, containing: "invalid character").isEmpty)
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description), ["ok.example.com"])
    }

    func testAFileWhoseOnlyDomainsAreNeverMatchedPinsNothingAndSaysWhy() throws {
        let r = try S.run(.androidNSC, nsc("""
        <domain-config>
            <domain includeSubdomains="true">https://api.example.com/</domain>
            <domain>*</domain>
            <domain>*.cdn.example.com</domain>
            <pin-set><pin digest="SHA-256">\(h[0])</pin><pin digest="SHA-256">\(h[1])</pin></pin-set>
        </domain-config>
        """))
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, 0)
        XCTAssertFalse(r.findings.contains { $0.severity == .error }, "\(r.findings)")
        let never = S.findings(r, containing: "is never matched")
        XCTAssertEqual(never.map(\.line), [4, 5, 6])
        XCTAssertTrue(never[0].message.contains("a scheme, path, port"), never[0].message)
        XCTAssertTrue(never[1].message.contains("Android has no wildcards"), never[1].message)
        let summary = try XCTUnwrap(S.findings(r, containing: "the app pins nothing in this configuration").first)
        XCTAssertNil(summary.line)
        XCTAssertTrue(summary.message.contains("\"https://api.example.com/\" (line 4, never matched)"), summary.message)
        S.assertRoundTrip(r)
    }

    func testTrustKitAndroidEnforcePinningFalseIsReportOnly() throws {
        let r = try S.run(.androidNSC, nsc("""
        <domain-config>
            <domain>api.example.com</domain>
            <pin-set><pin digest="SHA-256">\(h[0])</pin><pin digest="SHA-256">\(h[1])</pin></pin-set>
            <trustkit-config enforcePinning="false" disableDefaultReportUri="true"/>
        </domain-config>
        """))
        let rule = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertTrue(rule.policy.allowSystemTrustFallback)
        XCTAssertTrue(rule.policy.requireSystemTrust)
        let w = try XCTUnwrap(S.findings(r, containing: "enforcePinning=\"false\"").first)
        XCTAssertEqual(w.line, 6)
        XCTAssertEqual(w.severity, .warning)
    }

    func testTrustKitEnforcePinningFalseIsAFinding() throws {
        let r = try S.run(.trustkit, """
        {"TSKSwizzleNetworkDelegates": true,
         "TSKPinnedDomains": {"a.example.com": {"TSKEnforcePinning": false, "TSKPublicKeyHashes": ["\(h[0])"]}}}
        """)
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.allowSystemTrustFallback, true)
        XCTAssertEqual(S.findings(r, containing: "report only, pins are not enforced").first?.line, 2)
    }

    func testAConfigurationThatPinsNothingIsNotAnError() throws {
        let r = try S.run(.androidNSC, nsc("""
        <domain-config cleartextTrafficPermitted="false">
            <domain includeSubdomains="true">example.com</domain>
        </domain-config>
        """))
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, 0)
        XCTAssertFalse(r.findings.contains { $0.severity == .error })
        XCTAssertEqual(S.findings(r, containing: "the app pins nothing for **.example.com").first?.line, 4)
        XCTAssertEqual(S.findings(r, containing: "the app pins nothing in this configuration").count, 1)
        XCTAssertTrue(r.yaml.contains("    policies: []\n"), r.yaml)
        S.assertRoundTrip(r)
    }

    func testNginxAndApacheConfigurationsAndFoldedHeadersAreRead() throws {
        let pins = "pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\""
        let escaped = pins.replacingOccurrences(of: "\"", with: "\\\"")
        let r = try S.run(.hpkp, """
        server {
            server_name api.example.com;
            add_header Public-Key-Pins '\(pins); max-age=5184000; includeSubDomains' always;
        }
        <VirtualHost *:443>
            ServerName shop.example.org:443
            Header always set Public-Key-Pins-Report-Only "\(escaped); max-age=600"
        </VirtualHost>
        Host: folded.example.net
        Public-Key-Pins: pin-sha256="\(h[2])";
            pin-sha256="\(h[3])";
        \tmax-age=60
        """, file: "site.conf")
        XCTAssertEqual(S.rule(r, "**.api.example.com")?.line, 3)
        XCTAssertEqual(S.rule(r, "**.api.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
        XCTAssertEqual(S.rule(r, "shop.example.org")?.policy.allowSystemTrustFallback, true)
        XCTAssertEqual(S.rule(r, "folded.example.net")?.policy.pins.map(\.hash), [h[2], h[3]])
        XCTAssertEqual(S.rule(r, "folded.example.net")?.line, 10)
        XCTAssertFalse(r.findings.contains { $0.severity == .error }, "\(r.findings)")
    }

    func testDomainsTrustingOnlyBundledCAsAreCAPinning() throws {
        let xml = nsc("""
        <domain-config>
            <domain>api.example.com</domain>
            <trust-anchors>
                <certificates src="@raw/ca_one"/>
                <certificates src="@raw/ca_two"/>
            </trust-anchors>
        </domain-config>
        <domain-config>
            <domain>b.example.com</domain>
            <trust-anchors><certificates src="@raw/absent"/></trust-anchors>
        </domain-config>
        """)
        let r = try PolicyImporter.importPolicy(format: .androidNSC, contents: Array(xml.utf8), file: "nsc.xml", name: "app",
                                                environment: "prod",
                                                resources: ["@raw/ca_one": .spki([h[0]]), "@raw/ca_two": .spki([h[1], h[0]]),
                                                            "@raw/absent": .missing("no res/raw/absent.{pem,crt,cer,der}")])
        let rule = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(rule.policy.pins.map(\.hash), [h[0], h[1]])
        XCTAssertTrue(rule.policy.pins.allSatisfy { $0.type == .ca })
        XCTAssertEqual(rule.policy.pins.map(\.line), [6, 7])
        XCTAssertEqual(S.findings(r, containing: "@raw/absent (trust anchor of b.example.com) not found").first?.line, 12)
        XCTAssertTrue(S.findings(r, containing: "no pins").isEmpty)
        // Without resources, each unresolved anchor is named.
        let bare = try XCTUnwrap(S.failure(.androidNSC, xml))
        XCTAssertEqual(bare.findings.filter { $0.message.contains("give the app's res/ directory with --res DIR") }.map(\.line), [6, 7, 12])
    }

    func testCertificateFilesYieldTheirSubjectPublicKeyInfo() throws {
        XCTAssertThrowsError(try ImportResource.subjectPublicKeyInfos(Array("not a certificate".utf8)))
        XCTAssertThrowsError(try ImportResource.subjectPublicKeyInfos([0x30, 0x82, 0xFF, 0xFF]))
        XCTAssertThrowsError(try ImportResource.subjectPublicKeyInfos(Array("-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n".utf8)))
    }
}
