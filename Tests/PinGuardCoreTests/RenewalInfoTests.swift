import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// ACME Renewal Information as pure rules: the certificate identifier, the window, when to ask again, and
/// what the server's JSON may say.
final class RenewalInfoIdentifierTests: XCTestCase {
    func testTheWorkedExampleOfRFC9773Section4Point1() {
        // keyIdentifier 69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4, serial 00:87:65:43:21.
        XCTAssertEqual(RenewalInfoID.make(keyIdentifierHex: "69885B6B87464041E1B37B847BA0AE2CDE01C8D4", serialHex: "87654321"),
                       "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE")
    }

    func testTheSerialIsItsDERContentBytes() {
        XCTAssertEqual(RenewalInfoID.make(keyIdentifierHex: "01", serialHex: "7F"), "AQ.fw")
        XCTAssertEqual(RenewalInfoID.make(keyIdentifierHex: "01", serialHex: "0080"), "AQ.AIA", "a zero byte before a high bit")
        XCTAssertEqual(RenewalInfoID.make(keyIdentifierHex: "01", serialHex: "000001"), "AQ.AQ", "no redundant zero bytes")
        XCTAssertEqual(RenewalInfoID.make(keyIdentifierHex: "01", serialHex: "ABC"), "AQ.Crw", "an odd number of digits")
    }

    func testACertificateWithoutAnAuthorityKeyIdentifierHasNoIdentifier() {
        var leaf = ChainCertificate(depth: 0, subject: "CN=a", issuer: "CN=b", serial: "01", notBefore: Date(timeIntervalSince1970: 0),
                                    notAfter: Date(timeIntervalSince1970: 1), spkiSHA256: "", certSHA256: "")
        XCTAssertNil(RenewalInfoID.of(leaf))
        leaf.authorityKeyID = "not hex"
        XCTAssertNil(RenewalInfoID.of(leaf))
        XCTAssertNil(RenewalInfoID.make(keyIdentifierHex: "01", serialHex: "-01"))
    }
}

final class RenewalInfoScheduleTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testRetryAfterIsClampedToOneMinuteAndOneDay() {
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "21600", now: now), 21_600)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "5", now: now), 60)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "999999", now: now), 86_400)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: nil, now: now), 6 * 3600)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "soon", now: now), 6 * 3600)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "-5", now: now), 6 * 3600)
    }

    func testRetryAfterMayBeAnHTTPDate() {
        // 1_800_000_000 is Fri, 15 Jan 2027 08:00:00 GMT.
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "Fri, 15 Jan 2027 10:00:00 GMT", now: now), 7200)
        XCTAssertEqual(RenewalInfoSchedule.wait(retryAfter: "Thu, 14 Jan 2027 10:00:00 GMT", now: now), 60)
    }

    func testErrorsBackOffFromAMinuteToADay() {
        XCTAssertEqual((1...3).map { RenewalInfoSchedule.backoff(failures: $0) }, [60, 120, 240])
        XCTAssertEqual(RenewalInfoSchedule.backoff(failures: 50), 86_400)
    }

    func testAWindowAsksForEarlyRenewalWhenItEndedOrIsExplained() {
        let start = now.addingTimeInterval(-7200), end = now.addingTimeInterval(-3600)
        XCTAssertTrue(RenewalWindow(start: start, end: end).asksEarlyRenewal(now: now))
        XCTAssertFalse(RenewalWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400)).asksEarlyRenewal(now: now))
        XCTAssertTrue(RenewalWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400),
                                    explanationURL: "https://ca.example/incident").asksEarlyRenewal(now: now))
    }
}

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
