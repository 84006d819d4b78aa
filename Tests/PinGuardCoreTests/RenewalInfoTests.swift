import Foundation
import PinGuardCore
import XCTest

/// ACME Renewal Information as pure rules: the certificate identifier, the window and when to ask again (what
/// the server's JSON may say is read by PinGuardReaders: RenewalInfoReaderTests).
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
