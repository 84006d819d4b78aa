import Foundation
import XCTest
import PinGuardCore
import PinGuardReaders
import PinGuardReadersTestSupport

final class ImportTrustKitTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func plist(_ domains: String, extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>TSKConfiguration</key>
          <dict>
            <key>TSKSwizzleNetworkDelegates</key>
            <true/>\(extra)
            <key>TSKPinnedDomains</key>
            <dict>
        \(domains)
            </dict>
          </dict>
        </dict>
        </plist>
        """
    }

    func domain(_ name: String, _ body: String) -> String {
        "      <key>\(name)</key>\n      <dict>\n\(body)\n      </dict>"
    }

    func hashes(_ values: [String]) -> String {
        "        <key>TSKPublicKeyHashes</key>\n        <array>\n"
            + values.map { "          <string>\($0)</string>" }.joined(separator: "\n") + "\n        </array>"
    }

    func testExampleImportsEveryDomainWithTrustKitSemantics() throws {
        let file = "policies/sources/trustkit-Info.plist"
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: S.bytes(file), file: file,
                                                name: "ios-app", environment: "prod")
        XCTAssertEqual(r.policySet.version, "5.2")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description),
                       ["api.example.com", "**.example.com", "status.example.com", "telemetry.example.net"])
        let api = try XCTUnwrap(S.rule(r, "api.example.com"))
        XCTAssertEqual(api.line, 15)
        XCTAssertEqual(api.policy.pins.map(\.hash), [h[0], h[1]])
        XCTAssertTrue(api.policy.pins.allSatisfy { $0.type == .spki && $0.scope == .any })
        XCTAssertEqual(api.policy.pins.map(\.line), [23, 24])
        XCTAssertEqual(api.policy.expires, RFC3339.parse("2027-06-30T00:00:00Z"))
        XCTAssertTrue(api.policy.requireSystemTrust)
        XCTAssertEqual(api.policy.failStrategy, .strict)
        let excluded = try XCTUnwrap(S.rule(r, "status.example.com"))
        XCTAssertEqual(excluded.policy.pins, [])
        let reportOnly = try XCTUnwrap(S.rule(r, "telemetry.example.net"))
        XCTAssertTrue(reportOnly.policy.allowSystemTrustFallback)
        XCTAssertEqual(reportOnly.policy.failStrategy, .strict)
        let report = S.findings(r, containing: "reporting is not modelled")
        XCTAssertEqual(report.first?.line, 26)
        XCTAssertEqual(report.first?.severity, .info)
        XCTAssertTrue(r.yaml.contains("# policies/sources/trustkit-Info.plist:15 TSKConfiguration.TSKPinnedDomains[\"api.example.com\"]"))
    }

    func testExcludedSubdomainEvaluatesAsPinSetEmpty() throws {
        let file = "policies/sources/trustkit-Info.plist"
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: S.bytes(file), file: file,
                                                name: "ios-app", environment: "prod")
        let e = try XCTUnwrap(S.evaluate(r, S.facts(host: "status.example.com", leaf: h[7], intermediate: h[6])))
        XCTAssertEqual(e.reason, .pinSetEmpty)
        XCTAssertEqual(e.verdict, .accept)
        let sibling = try XCTUnwrap(S.evaluate(r, S.facts(host: "www.example.com", leaf: h[7], intermediate: h[6])))
        XCTAssertEqual(sibling.reason, .pinMismatch)
        let below = try XCTUnwrap(S.evaluate(r, S.facts(host: "a.status.example.com", leaf: h[7], intermediate: h[2])))
        XCTAssertEqual(below.reason, .pinMatch, "only the excluded host itself leaves the parent policy")
    }

    func testReportOnlyAcceptsMismatchOnlyOnTrustedChains() throws {
        let r = try S.run(.trustkit, plist(domain("t.example.net", hashes([h[0], h[1]]) + "\n        <key>TSKEnforcePinning</key><false/>")))
        let trusted = try XCTUnwrap(S.evaluate(r, S.facts(host: "t.example.net", leaf: h[5], intermediate: h[6])))
        XCTAssertEqual(trusted.verdict, .accept)
        XCTAssertEqual(trusted.reason, .pinMismatchAllowedByFallback)
        let untrusted = try XCTUnwrap(S.evaluate(r, S.facts(host: "t.example.net", leaf: h[5], intermediate: h[6], trusted: false)))
        XCTAssertEqual(untrusted.verdict, .reject, "TrustKit blocks an invalid chain even when not enforcing pins")
        XCTAssertEqual(untrusted.reason, .systemTrustFailed)
    }

    func testSinglePinIsReportedButImported() throws {
        let r = try S.run(.trustkit, plist(domain("one.example.com", hashes([h[0]]))))
        let f = S.findings(r, containing: "TrustKit requires at least 2")
        XCTAssertEqual(f.count, 1)
        XCTAssertEqual(f.first?.severity, .error)
        XCTAssertEqual(f.first?.line, 10)
        XCTAssertEqual(S.rule(r, "one.example.com")?.policy.pins.count, 1)
    }

    func testMalformedHashesAreReportedWithLineAndSkipped() throws {
        let r = try S.run(.trustkit, plist(domain("api.example.com", hashes([h[0], "not-base64!", "AAAA", "sha256/" + h[1], h[2]]))))
        let bad = r.findings.filter { $0.message.contains("is not base64 of a 32-byte") }
        XCTAssertEqual(bad.map(\.line), [15, 16, 17])
        XCTAssertEqual(bad.first?.keyPath, "TSKConfiguration.TSKPinnedDomains[\"api.example.com\"].TSKPublicKeyHashes[1]")
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.map(\.hash), [h[0], h[2]])
        S.assertRoundTrip(r)
    }

    func testDuplicateHashesCountOnce() throws {
        let r = try S.run(.trustkit, plist(domain("api.example.com", hashes([h[0], h[0]]))))
        XCTAssertEqual(S.rule(r, "api.example.com")?.policy.pins.count, 1)
        XCTAssertEqual(S.findings(r, containing: "TrustKit requires at least 2").count, 1)
    }

    func testExclusionKeySpellings() throws {
        for key in ["kSKExcludeSubdomainFromParentPolicy", "TSKExcludeSubdomainFromParentPolicy", "kTSKExcludeSubdomainFromParentPolicy"] {
            let body = domain("example.com", hashes([h[0], h[1]]) + "\n        <key>TSKIncludeSubdomains</key><true/>")
                + "\n" + domain("www.example.com", "        <key>\(key)</key><true/>")
            let r = try S.run(.trustkit, plist(body))
            XCTAssertEqual(S.rule(r, "www.example.com")?.policy.pins, [], key)
            XCTAssertFalse(r.findings.contains { $0.severity == .error }, "\(key): \(r.findings)")
        }
    }

    func testExclusionWithoutParentIsAnError() throws {
        let r = try S.run(.trustkit, plist(domain("api.example.com", hashes([h[0], h[1]])) + "\n"
            + domain("www.example.org", "        <key>kSKExcludeSubdomainFromParentPolicy</key><true/>")))
        XCTAssertEqual(S.findings(r, containing: "no parent domain").first?.severity, .error)
    }

    func testIgnoredAndUnknownSettingsAreReported() throws {
        let r = try S.run(.trustkit, plist(domain("api.example.com", hashes([h[0], h[1]])
            + "\n        <key>TSKDisableDefaultReportUri</key><true/>\n        <key>TSKSomethingElse</key><true/>"),
            extra: "\n    <key>TSKFancyGlobal</key><true/>"))
        XCTAssertEqual(S.findings(r, containing: "reporting is not modelled").first?.severity, .info)
        XCTAssertEqual(S.findings(r, containing: "unknown TrustKit domain setting").first?.line, 19)
        XCTAssertEqual(S.findings(r, containing: "unknown TrustKit setting").first?.line, 8)
    }

    func testBadExpirationDateIsIgnoredLikeTrustKit() throws {
        let r = try S.run(.trustkit, plist(domain("api.example.com", hashes([h[0], h[1]])
            + "\n        <key>TSKExpirationDate</key><string>30/06/2027</string>")))
        XCTAssertNil(S.rule(r, "api.example.com")?.policy.expires)
        XCTAssertEqual(S.findings(r, containing: "not a yyyy-MM-dd date").first?.severity, .warning)
    }

    func testJSONConfigurationItselfAndWrapped() throws {
        let inner = """
        {
          "TSKSwizzleNetworkDelegates": false,
          "TSKPinnedDomains": {
            "api.example.com": {
              "TSKIncludeSubdomains": true,
              "TSKPublicKeyHashes": [
                "\(h[0])",
                "sha1/AAAA"
              ]
            }
          }
        }
        """
        for (text, offset) in [(inner, 0), ("{\"TSKConfiguration\": " + inner + "}", 0)] {
            let r = try S.run(.trustkit, text, file: "trustkit.json")
            let rule = try XCTUnwrap(S.rule(r, "**.api.example.com"))
            XCTAssertEqual(rule.line, 4 + offset)
            XCTAssertEqual(rule.policy.pins.first?.line, 7)
            XCTAssertEqual(S.findings(r, containing: "is not base64").first?.line, 8)
            XCTAssertEqual(S.findings(r, containing: "TSKSwizzleNetworkDelegates is false").count, 1)
            S.assertRoundTrip(r)
        }
    }

    func testBinaryPlist() throws {
        let config: [String: Any] = [
            "CFBundleShortVersionString": "7.0",
            "TSKConfiguration": [
                "TSKSwizzleNetworkDelegates": true,
                "TSKPinnedDomains": [
                    "b.example.com": ["TSKPublicKeyHashes": [h[0], h[1]], "TSKIncludeSubdomains": true],
                    "a.example.com": ["TSKPublicKeyHashes": [h[2], "bad"], "TSKEnforcePinning": false],
                ] as [String: Any],
            ] as [String: Any],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: config, format: .binary, options: 0)
        XCTAssertTrue(data.starts(with: Array("bplist".utf8)))
        let r = try PolicyImporter.importPolicy(format: .trustkit, contents: [UInt8](data), file: "Info.plist",
                                                name: "bin", environment: "prod")
        XCTAssertEqual(r.policySet.version, "7.0")
        XCTAssertEqual(r.policySet.environments["prod"]?.rules.map(\.pattern.description), ["a.example.com", "**.b.example.com"])
        XCTAssertEqual(S.rule(r, "a.example.com")?.policy.allowSystemTrustFallback, true)
        let bad = try XCTUnwrap(S.findings(r, containing: "is not base64").first)
        XCTAssertNil(bad.line)
        XCTAssertEqual(bad.keyPath, "TSKConfiguration.TSKPinnedDomains[\"a.example.com\"].TSKPublicKeyHashes[1]")
        XCTAssertTrue(r.yaml.contains("# Info.plist TSKConfiguration.TSKPinnedDomains[\"a.example.com\"]"))
        S.assertRoundTrip(r)
    }

    func testUnusableInputThrows() {
        XCTAssertNotNil(S.failure(.trustkit, "<plist version=\"1.0\"><dict><key>Other</key><true/></dict></plist>"))
        let malformed = S.failure(.trustkit, "<plist>\n<dict>\n<key>x</key>\n</plist>")
        XCTAssertNotNil(malformed?.line)
        XCTAssertTrue(malformed?.message.contains("not well-formed XML") ?? false, "\(String(describing: malformed))")
        XCTAssertNotNil(S.failure(.trustkit, "{\"TSKPinnedDomains\": {\"a.example.com\": {\"TSKPublicKeyHashes\": [\"bad\"]}}}"))
        XCTAssertTrue(S.failure(.trustkit, "{ not json")?.message.contains("not valid JSON") ?? false)
        XCTAssertNotNil(S.failure(.trustkit, "{\"TSKConfiguration\": {\"TSKPinnedDomains\": {}}}"))
    }
}
