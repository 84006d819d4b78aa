import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class ImportAndroidNSCTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func testExampleInheritsPinSetsAndKeepsUnpinnedSubdomains() throws {
        let file = "policies/sources/network_security_config.xml"
        let r = try PolicyImporter.importPolicy(format: .androidNSC, contents: S.bytes(file), file: file,
                                                name: "android", environment: "prod")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["**.example.com", "payments.example.com", "**.api.example.com", "**.static.example.com"])
        let base = try XCTUnwrap(S.rule(r, "**.example.com"))
        XCTAssertEqual(base.policy.expires, RFC3339.parse("2027-01-01T00:00:00Z"))
        XCTAssertEqual(base.policy.pins.map(\.line), [13, 14])
        XCTAssertTrue(base.policy.requireSystemTrust)
        let api = try XCTUnwrap(S.rule(r, "**.api.example.com"))
        XCTAssertEqual(api.policy.pins, base.policy.pins, "a nested domain-config inherits its parent's pin-set")
        XCTAssertEqual(api.policy.expires, base.policy.expires)
        XCTAssertNotEqual(S.rule(r, "payments.example.com")?.policy.pins, base.policy.pins)
        XCTAssertNil(S.rule(r, "payments.example.com")?.policy.expires)
        XCTAssertEqual(S.rule(r, "**.static.example.com")?.policy.pins, [])
        let debug = try XCTUnwrap(S.findings(r, containing: "debug-overrides").first)
        XCTAssertEqual(debug.severity, .warning)
        XCTAssertEqual(debug.line, 35)
        let cdn = try XCTUnwrap(S.evaluate(r, S.facts(host: "img.static.example.com", leaf: h[0], intermediate: h[1])))
        XCTAssertEqual(cdn.reason, .pinSetEmpty)
    }

    func config(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<network-security-config>\n\(body)\n</network-security-config>\n"
    }

    func testUnsupportedDigestsAndBadHashesAreReportedWithLines() throws {
        let r = try S.run(.androidNSC, config("""
            <domain-config>
                <domain>api.example.com</domain>
                <pin-set>
                    <pin digest="SHA-1">AAAAAAAAAAAAAAAAAAAAAAAAAAA=</pin>
                    <pin digest="SHA-256">\(h[0])</pin>
                    <pin digest="SHA-256">not base64</pin>
                    <pin digest="SHA-256">AAAA</pin>
                    <pin>\(h[1])</pin>
                    <pin digest="sha-256">\(h[2])</pin>
                </pin-set>
            </domain-config>
        """))
        XCTAssertEqual(S.findings(r, containing: "unsupported pin digest \"SHA-1\"").first?.line, 6)
        XCTAssertEqual(S.findings(r, containing: "is not base64").map(\.line), [8, 9])
        XCTAssertEqual(S.findings(r, containing: "unsupported pin digest \"\"").first?.line, 10)
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[2]])
        XCTAssertTrue(r.findings.filter { $0.line != nil }.allSatisfy { $0.file == "input" })
        S.assertRoundTrip(r)
    }

    func testBaseConfigPinSetIsRefusedAsAndroidDoes() throws {
        let r = try S.run(.androidNSC, config("""
            <base-config>
                <pin-set><pin digest="SHA-256">\(h[0])</pin></pin-set>
            </base-config>
            <domain-config>
                <domain>api.example.com</domain>
                <pin-set><pin digest="SHA-256">\(h[1])</pin><pin digest="SHA-256">\(h[2])</pin></pin-set>
            </domain-config>
        """))
        let f = try XCTUnwrap(S.findings(r, containing: "not allowed in <base-config>").first)
        XCTAssertEqual(f.severity, .error)
        XCTAssertEqual(f.line, 4)
        XCTAssertNil(r.policySet.environments["prod"]?.defaultPolicy)
    }

    func testOverridePinsOnSystemAnchorsMeansFallback() throws {
        let r = try S.run(.androidNSC, config("""
            <domain-config>
                <domain>api.example.com</domain>
                <trust-anchors><certificates src="system" overridePins="true"/></trust-anchors>
                <pin-set><pin digest="SHA-256">\(h[1])</pin><pin digest="SHA-256">\(h[2])</pin></pin-set>
            </domain-config>
            <domain-config>
                <domain>b.example.com</domain>
                <trust-anchors><certificates src="@raw/corp_ca" overridePins="true"/></trust-anchors>
                <pin-set><pin digest="SHA-256">\(h[1])</pin><pin digest="SHA-256">\(h[2])</pin></pin-set>
            </domain-config>
        """))
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.allowSystemTrustFallback, true)
        XCTAssertEqual(S.rule(r, "b.example.com")?.policy.allowSystemTrustFallback, false)
        XCTAssertEqual(S.findings(r, containing: "overridePins=\"true\" on system anchors").first?.line, 5)
        XCTAssertEqual(S.findings(r, containing: "trusts anchors from \"@raw/corp_ca\"").first?.line, 10)
        let e = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: h[4], intermediate: h[5])))
        XCTAssertEqual(e.reason, .pinMismatchAllowedByFallback)
    }

    func testDuplicateDomainsAndMissingDomainAreAndroidErrors() throws {
        let r = try S.run(.androidNSC, config("""
            <domain-config>
                <domain includeSubdomains="true">example.com</domain>
                <pin-set><pin digest="SHA-256">\(h[1])</pin><pin digest="SHA-256">\(h[2])</pin></pin-set>
            </domain-config>
            <domain-config>
                <domain>example.com</domain>
                <pin-set><pin digest="SHA-256">\(h[3])</pin></pin-set>
            </domain-config>
            <domain-config>
                <pin-set><pin digest="SHA-256">\(h[3])</pin></pin-set>
            </domain-config>
        """))
        XCTAssertEqual(S.findings(r, containing: "already specified on line 4").first?.line, 8)
        XCTAssertEqual(S.findings(r, containing: "without <domain>").first?.line, 11)
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.count, 1)
    }

    func testBadExpirationIsAnErrorAndPinsStayUnexpiring() throws {
        let r = try S.run(.androidNSC, config("""
            <domain-config>
                <domain>api.example.com</domain>
                <pin-set expiration="2027-13-01"><pin digest="SHA-256">\(h[1])</pin><pin digest="SHA-256">\(h[2])</pin></pin-set>
            </domain-config>
        """))
        XCTAssertEqual(S.findings(r, containing: "is not a yyyy-MM-dd date").first?.severity, .error)
        XCTAssertNil(S.rule(r, "api.example.com")?.policy.expires)
    }

    func testUnusableInputThrows() {
        let broken = S.failure(.androidNSC, "<network-security-config>\n<domain-config>\n</network-security-config>")
        XCTAssertEqual(broken?.line, 3)
        XCTAssertNotNil(S.failure(.androidNSC, "<manifest/>"))
    }
}
