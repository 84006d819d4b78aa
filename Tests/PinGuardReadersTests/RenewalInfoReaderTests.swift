import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// What a CA's renewal-information JSON may say, its ACME directory, the `renewal` configuration, and the bundled
/// issuer catalog's directories, as the readers read them.
final class RenewalInfoReaderTests: XCTestCase {
    func testAWindowIsRead() throws {
        let w = try RenewalInfoReader.window(Array("""
            {"suggestedWindow": {"start": "2027-01-10T00:00:00Z", "end": "2027-01-12T00:00:00Z"},
             "explanationURL": "https://ca.example/why"}
            """.utf8))
        XCTAssertEqual(w.start, RFC3339.parse("2027-01-10T00:00:00Z"))
        XCTAssertEqual(w.end, RFC3339.parse("2027-01-12T00:00:00Z"))
        XCTAssertEqual(w.explanationURL, "https://ca.example/why")
    }

    func testAnswersThatCannotBeTrueAreFaults() {
        let bad: [(String, String)] = [
            ("[1]", "renewal information is not a JSON object"),
            ("{}", "renewal information has no suggestedWindow with start and end"),
            (#"{"suggestedWindow": {"start": "tomorrow", "end": "2027-01-12T00:00:00Z"}}"#,
             "renewal information: suggestedWindow start or end is not an RFC 3339 time"),
            (#"{"suggestedWindow": {"start": "2027-01-12T00:00:00Z", "end": "2027-01-10T00:00:00Z"}}"#,
             "renewal information: suggestedWindow ends before it starts"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try RenewalInfoReader.window(Array(text.utf8))) { XCTAssertEqual("\($0)", message) }
        }
        let odd = try? RenewalInfoReader.window(Array(#"{"suggestedWindow": {"start": "2027-01-10T00:00:00Z", "end": "2027-01-12T00:00:00Z"}, "explanationURL": "javascript:alert(1)"}"#.utf8))
        XCTAssertNil(odd?.explanationURL, "only an http or https explanation is kept")
    }

    func testAWindowOutsideAnyCertificatesLifeIsAFault() {
        for (start, end) in [("0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"), ("2027-01-10T00:00:00Z", "2101-01-01T00:00:00Z"),
                             ("1990-01-01T00:00:00Z", "1990-01-02T00:00:00Z"), ("2027-01-01T00:00:00Z", "2028-03-01T00:00:00Z")] {
            let text = #"{"suggestedWindow": {"start": "\#(start)", "end": "\#(end)"}}"#
            XCTAssertThrowsError(try RenewalInfoReader.window(Array(text.utf8)), text) {
                XCTAssertTrue("\($0)".contains("outside any certificate's life") || "\($0)".contains("not an RFC 3339 time"), "\($0)")
            }
        }
    }

    func testAnExplanationThatIsNotAPlainURLIsDroppedNeverEchoed() throws {
        let window = #"{"suggestedWindow": {"start": "2027-01-10T00:00:00Z", "end": "2027-01-12T00:00:00Z"}, "explanationURL": "#
        for hostile in [#""https://ca.example/x\npinguard: [certificate_revoked] FORGED\r\u0000""#, #""https://ca.example/a b""#,
                        #""https://ca.example/\"><script>""#, #""https://ca.example/\u001b[31m""#, #""https://""#,
                        #""https://ca.example/\u00e9""#] {
            let read = try RenewalInfoReader.window(Array((window + hostile + "}").utf8))
            XCTAssertNil(read.explanationURL, hostile)
        }
        let plain = try RenewalInfoReader.window(Array((window + #""https://ca.example/incidents/2027-01?id=4#top"}"#).utf8))
        XCTAssertEqual(plain.explanationURL, "https://ca.example/incidents/2027-01?id=4#top")
        XCTAssertThrowsError(try RenewalInfoReader.renewalInfoURL(directory: Array(#"{"renewalInfo": "https://ca.example/ari\r\nX: y"}"#.utf8)))
    }

    func testTheDirectoryNamesItsRenewalInfoURLOrNone() throws {
        XCTAssertEqual(try RenewalInfoReader.renewalInfoURL(directory: Array(#"{"renewalInfo": "https://ca.example/ri"}"#.utf8)), "https://ca.example/ri")
        XCTAssertNil(try RenewalInfoReader.renewalInfoURL(directory: Array(#"{"newNonce": "https://ca.example/n"}"#.utf8)))
        XCTAssertThrowsError(try RenewalInfoReader.renewalInfoURL(directory: Array(#"{"renewalInfo": 5}"#.utf8)))
    }

    func testAcmeDirectoryIsConfiguredOrTurnedOff() throws {
        let c = try ServiceConfigParser.parse("""
            renewal: {acme_directory: "https://ca.example/directory"}
            targets:
              - {host: a.example, renewal: {acme_directory: none}}
              - {host: b.example}
            """, file: "c.yml")
        XCTAssertEqual(c.renewal.acmeDirectory, "https://ca.example/directory")
        let a = (c.targets[0].renewal ?? RenewalSettings()).over(c.renewal)
        let b = (c.targets[1].renewal ?? RenewalSettings()).over(c.renewal)
        XCTAssertNil(a.renewalInfoDirectory(issuerSPKI: nil, catalog: .empty))
        XCTAssertEqual(b.renewalInfoDirectory(issuerSPKI: nil, catalog: .empty), "https://ca.example/directory")
        XCTAssertThrowsError(try ServiceConfigParser.parse("renewal: {acme_directory: \"http://ca.example/d\"}\n", file: "c.yml")) {
            XCTAssertEqual("\($0)", "c.yml:1: renewal.acme_directory: \"http://ca.example/d\" is not an https URL of an ACME directory, or none")
        }
    }

    func testTheBundledCatalogNamesLetsEncryptsDirectory() throws {
        let catalog = try IssuerCatalogReader.parse(try Array(Data(contentsOf: Repository.root.appendingPathComponent("Sources/PinGuardConfig/Resources/issuer_catalog.json"))), file: "issuer_catalog.json")
        let letsEncrypt = catalog.pools.filter { $0.operatorName == "Let's Encrypt" }
        XCTAssertFalse(letsEncrypt.isEmpty)
        XCTAssertTrue(letsEncrypt.allSatisfy { $0.acmeDirectory == "https://acme-v02.api.letsencrypt.org/directory" })
        XCTAssertNil(catalog.pools.first { $0.operatorName == "Amazon Trust Services" }?.acmeDirectory)
        let r11 = try XCTUnwrap(letsEncrypt.flatMap(\.issuers).first { $0.name == "R11" })
        XCTAssertEqual(RenewalSettings().renewalInfoDirectory(issuerSPKI: r11.spkiSHA256, catalog: catalog),
                       "https://acme-v02.api.letsencrypt.org/directory")
    }
}
