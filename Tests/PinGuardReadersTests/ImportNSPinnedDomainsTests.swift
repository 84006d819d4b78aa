import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class ImportNSPinnedDomainsTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func exampleResult() throws -> ImportResult {
        let file = "policies/sources/nspinneddomains-Info.plist"
        return try PolicyImporter.importPolicy(format: .nspinneddomains, contents: S.bytes(file), file: file,
                                               name: "ios-wallet", environment: "prod")
    }

    func testExampleMapsLeafAndCAIdentities() throws {
        let r = try exampleResult()
        XCTAssertEqual(r.policySet.version, "3.1.0")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["api.example.com", "**.cdn.example.com", "login.example.com"])
        let api = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(api.policy.matchMode, .eachGroup)
        XCTAssertEqual(api.policy.pins.filter { $0.group == "leaf" }.map(\.scope), [.leaf, .leaf])
        XCTAssertEqual(api.policy.pins.filter { $0.group == "leaf" }.map(\.type), [.spki, .spki])
        XCTAssertEqual(api.policy.pins.filter { $0.group == "ca" }.map(\.type), [.ca, .ca])
        XCTAssertEqual(api.policy.pins.map(\.line), [19, 23, 30, 34])
        XCTAssertEqual(S.rule(r, "**.cdn.example.com")?.policy.matchMode, .any)
        XCTAssertEqual(S.rule(r, "login.example.com")?.policy.matchMode, .any)
        XCTAssertTrue(r.findings.isEmpty, "\(r.findings)")
    }

    func testEachGroupNeedsBothALeafAndACAMatch() throws {
        let r = try exampleResult()
        let leafOK = "1zetCgNco60XHqm28pFgz/Qvn7/sYuOhQVT6+XXtgb4=", caOK = "5pIQtKcQTytSBYiOmeaJ/HJDQjQqo/bAr66D2jPNwpQ="
        let other = h[0]
        let both = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: leafOK, intermediate: caOK)))
        XCTAssertEqual(both.verdict, .accept)
        XCTAssertEqual(both.reason, .pinMatch)
        let leafOnly = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: leafOK, intermediate: other)))
        XCTAssertEqual(leafOnly.verdict, .reject)
        XCTAssertEqual(leafOnly.reason, .pinMismatch)
        let caOnly = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: other, intermediate: caOK)))
        XCTAssertEqual(caOnly.verdict, .reject)
        let caAtRoot = try XCTUnwrap(S.evaluate(r, S.facts(host: "api.example.com", leaf: leafOK, intermediate: other, root: caOK)))
        XCTAssertEqual(caAtRoot.verdict, .accept, "a CA identity may be the root")
        let caKeyOnLeaf = try XCTUnwrap(S.evaluate(r, S.facts(host: "cdn.example.com", leaf: caOK, intermediate: other)))
        XCTAssertEqual(caKeyOnLeaf.verdict, .reject, "a CA identity never matches the leaf")
        let cdnSub = try XCTUnwrap(S.evaluate(r, S.facts(host: "img.cdn.example.com", leaf: other, intermediate: caOK)))
        XCTAssertEqual(cdnSub.verdict, .accept)
    }

    func info(_ domains: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>NSAppTransportSecurity</key>
          <dict>
            <key>NSPinnedDomains</key>
            <dict>
        \(domains)
            </dict>
          </dict>
        </dict>
        </plist>
        """
    }

    func testMissingAndMalformedIdentitiesAreReported() throws {
        let r = try S.run(.nspinneddomains, info("""
              <key>api.example.com</key>
              <dict>
                <key>NSPinnedLeafIdentities</key>
                <array>
                  <dict><key>SPKI-SHA256-BASE64</key><string>\(h[0])</string></dict>
                  <dict><key>SPKI-SHA1-BASE64</key><string>AAAA</string></dict>
                  <dict><key>SPKI-SHA256-BASE64</key><string>AAAA</string></dict>
                  <string>\(h[1])</string>
                </array>
                <key>NSRequiresCertificateTransparency</key><true/>
              </dict>
              <key>empty.example.com</key>
              <dict>
                <key>NSIncludesSubdomains</key><true/>
              </dict>
        """))
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0]])
        XCTAssertEqual(S.findings(r, containing: "missing SPKI-SHA256-BASE64").first?.line, 13)
        XCTAssertEqual(S.findings(r, containing: "unknown identity key").first?.line, 13)
        XCTAssertEqual(S.findings(r, containing: "not base64 of a 32-byte").first?.line, 14)
        XCTAssertEqual(S.findings(r, containing: "expected a dictionary").first?.line, 15)
        XCTAssertEqual(S.findings(r, containing: "unknown NSPinnedDomains setting").first?.line, 17)
        XCTAssertEqual(S.findings(r, containing: "ATS does not pin this domain").first?.line, 19)
        XCTAssertNil(r.policySet.environments["prod"]?.rules.first { $0.pattern.domain == "empty.example.com" })
        S.assertRoundTrip(r)
    }

    func testBinaryInfoPlist() throws {
        let plist: [String: Any] = ["NSAppTransportSecurity": ["NSPinnedDomains": [
            "api.example.com": [
                "NSIncludesSubdomains": true,
                "NSPinnedLeafIdentities": [["SPKI-SHA256-BASE64": h[0]], ["SPKI-SHA256-BASE64": h[1]]],
                "NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": h[2]]],
            ] as [String: Any],
        ]]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let r = try PolicyImporter.importPolicy(format: .nspinneddomains, contents: [UInt8](data), file: "Info.plist",
                                                name: "bin", environment: "prod")
        let rule = try XCTUnwrap(S.rule(r, "**.api.example.com"))
        XCTAssertEqual(rule.policy.matchMode, .eachGroup)
        XCTAssertEqual(rule.policy.pins.count, 3)
        XCTAssertNil(rule.line)
        S.assertRoundTrip(r)
    }

    func testNoPinnedDomainsThrows() {
        XCTAssertNotNil(S.failure(.nspinneddomains, "<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict/></dict></plist>"))
        XCTAssertNotNil(S.failure(.nspinneddomains, info("")))
        XCTAssertNotNil(S.failure(.nspinneddomains, "<html></html>"))
    }
}
