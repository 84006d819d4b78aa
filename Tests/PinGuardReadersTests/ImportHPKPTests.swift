import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class ImportHPKPTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func testExampleHostsFromURLCommentAndHostLine() throws {
        let file = "policies/sources/hpkp-headers.txt"
        let r = try PolicyImporter.importPolicy(format: .hpkp, contents: S.bytes(file), file: file,
                                                name: "web", environment: "prod")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["**.www.example.com", "shop.example.org"])
        let www = try XCTUnwrap(S.rule(r, "**.www.example.com"))
        XCTAssertEqual(www.line, 5)
        XCTAssertFalse(www.policy.allowSystemTrustFallback)
        XCTAssertEqual(www.policy.pins.count, 2)
        let shop = try XCTUnwrap(S.rule(r, "shop.example.org"))
        XCTAssertTrue(shop.policy.allowSystemTrustFallback, "Report-Only accepts a mismatch on a valid chain")
        XCTAssertEqual(shop.policy.failStrategy, .strict)
        XCTAssertEqual(S.findings(r, containing: "max-age=5184000 (60d)").first?.severity, .info)
    }

    func testHeaderWithoutHostUsesTheNameOrIsRefused() throws {
        let header = "Public-Key-Pins: pin-sha256=\"\(h[0])\"; pin-sha256=\"\(h[1])\"; max-age=600\n"
        let named = try S.run(.hpkp, header, name: "api.example.com")
        XCTAssertNotNil(S.rule(named, "api.example.com"))
        XCTAssertEqual(S.findings(named, containing: "using the import name").first?.severity, .warning)
        let refused = S.failure(.hpkp, header)
        XCTAssertEqual(refused?.findings.first { $0.message.contains("no host for this header") }?.line, 1)
    }

    func testUnsupportedAndInvalidDirectives() throws {
        let r = try S.run(.hpkp, """
        Host: a.example.com
        Public-Key-Pins: pin-sha1="AAAAAAAAAAAAAAAAAAAAAAAAAAA="; pin-sha256="\(h[0])"; pin-sha256="bad"; pin-sha256="\(h[1])"; max-age=60; fancy
        Host: b.example.com
        Public-Key-Pins: pin-sha256="\(h[0])"; max-age=60
        Host: c.example.com
        Public-Key-Pins: pin-sha256="\(h[0])"; pin-sha256="\(h[1])"
        Host: d.example.com
        Public-Key-Pins: pin-sha256="\(h[0])"; pin-sha256="\(h[1])"; max-age=60; max-age=70
        """)
        XCTAssertEqual(S.findings(r, containing: "pin-sha1: unsupported hash algorithm").first?.line, 2)
        XCTAssertEqual(S.findings(r, containing: "pin-sha256=\"bad\"").first?.line, 2)
        XCTAssertEqual(S.findings(r, containing: "unknown directive fancy").first?.severity, .info)
        XCTAssertEqual(S.findings(r, containing: "backup pin").first?.line, 4)
        XCTAssertEqual(S.findings(r, containing: "no max-age").first?.line, 6)
        XCTAssertEqual(S.findings(r, containing: "appears twice").first?.line, 8)
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description), ["a.example.com"])
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.pins.map(\.hash), [h[0], h[1]])
    }

    func testLaterHeadersReplaceAndMaxAgeZeroRemoves() throws {
        let r = try S.run(.hpkp, """
        > Host: a.example.com
        < Public-Key-Pins: pin-sha256="\(h[0])"; pin-sha256="\(h[1])"; max-age=60
        < Public-Key-Pins: pin-sha256="\(h[2])"; pin-sha256="\(h[3])"; max-age=60
        curl -sI https://b.example.com:8443/health
        HTTP/2 200
        location: https://elsewhere.example.net/
        Public-Key-Pins: pin-sha256="\(h[2])"; pin-sha256="\(h[3])"; max-age=60
        Public-Key-Pins: pin-sha256="\(h[2])"; pin-sha256="\(h[3])"; max-age=0
        """)
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.pins.map(\.hash), [h[2], h[3]])
        XCTAssertEqual(S.findings(r, containing: "replaces the header for a.example.com on line 2").first?.line, 3)
        XCTAssertEqual(S.findings(r, containing: "max-age=0 removes").first?.line, 8)
        XCTAssertNil(r.policySet.environments["prod"]?.rules.first { $0.pattern.domain == "b.example.com" })
        XCTAssertNil(r.policySet.environments["prod"]?.rules.first { $0.pattern.domain == "elsewhere.example.net" },
                     "a Location header does not name the host")
    }

    func testEnforcedAndReportOnlyForOneHost() throws {
        let r = try S.run(.hpkp, """
        Host: example.com
        Public-Key-Pins: pin-sha256="\(h[0])"; pin-sha256="\(h[1])"; max-age=60
        Public-Key-Pins-Report-Only: pin-sha256="\(h[2])"; pin-sha256="\(h[3])"; max-age=60; includeSubDomains
        Host: example.org
        Public-Key-Pins: pin-sha256="\(h[0])"; pin-sha256="\(h[1])"; max-age=60; includeSubDomains
        Public-Key-Pins-Report-Only: pin-sha256="\(h[2])"; pin-sha256="\(h[3])"; max-age=60
        """)
        XCTAssertEqual(S.rule(r, "example.com")?.policy.allowSystemTrustFallback, false)
        XCTAssertEqual(S.rule(r, "**.example.com")?.policy.allowSystemTrustFallback, true,
                       "subdomains get only the report-only pins")
        XCTAssertEqual(S.rule(r, "**.example.org")?.policy.allowSystemTrustFallback, false)
        XCTAssertEqual(S.findings(r, containing: "overridden by the enforced header on line 5").first?.line, 6)
        S.assertRoundTrip(r)
    }

    func testNoHeaderThrows() {
        XCTAssertNotNil(S.failure(.hpkp, "Strict-Transport-Security: max-age=63072000\n"))
    }
}
