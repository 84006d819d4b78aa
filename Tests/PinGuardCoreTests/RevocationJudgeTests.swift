import Foundation
import XCTest
@testable import PinGuardCore

/// RFC 5280 §6.3.3 as pinguard applies it, one rule a row: a list that verified answers for a certificate only
/// when its issuer, dates and scope fit; delta, indirect and unknown-critical lists are not believed.
final class RevocationJudgeTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let leafURL = "http://ca.test/int.crl"

    func leaf(serial: String = "64", isCA: Bool = false) -> ChainCertificate {
        var c = ChainCertificate(depth: 0, subject: "CN=api.test", issuer: "CN=Int", serial: serial, notBefore: now - 86_400,
                                 notAfter: now + 86_400 * 30, spkiSHA256: "k", certSHA256: "c", isCA: isCA)
        c.crlDistributionPoints = [leafURL]
        return c
    }

    func list(issuer: String = "CN=Int", thisUpdate: Double = -3600, nextUpdate: Double? = 86_400,
              revoked: [String: RevokedEntry] = ["64": RevokedEntry(revokedAt: Date(timeIntervalSince1970: 1_799_990_000), reason: .superseded)],
              scope: IssuingDistributionPoint? = nil, isDelta: Bool = false, critical: [String] = []) -> RevocationList {
        RevocationList(issuer: issuer, thisUpdate: now + thisUpdate, nextUpdate: nextUpdate.map { now + $0 }, revoked: revoked,
                       scope: scope, isDelta: isDelta, unknownCriticalExtensions: critical)
    }

    func testEachRuleGivesItsAnswer() {
        let revoked = RevocationState.revoked(at: Date(timeIntervalSince1970: 1_799_990_000), reason: .superseded)
        let rows: [(String, ChainCertificate, RevocationList, RevocationState)] = [
            ("listed", leaf(), list(), revoked),
            ("not listed", leaf(serial: "65"), list(), .notRevoked(nextUpdate: now + 86_400)),
            ("another issuer", leaf(), list(issuer: "CN=Other"), .unknown(.wrongIssuer)),
            ("thisUpdate ahead", leaf(), list(thisUpdate: 3600), .unknown(.notYetValid)),
            ("thisUpdate a minute ahead (skew)", leaf(), list(thisUpdate: 60), revoked),
            ("past nextUpdate", leaf(), list(nextUpdate: -1), .unknown(.expired)),
            ("no nextUpdate", leaf(), list(nextUpdate: nil), .unknown(.expired)),
            ("delta", leaf(), list(isDelta: true), .unknown(.unsupported)),
            ("unknown critical extension", leaf(), list(critical: ["1.2.3.4"]), .unknown(.unsupported)),
            ("indirect", leaf(), list(scope: IssuingDistributionPoint(indirect: true)), .unknown(.unsupported)),
            ("other distribution point", leaf(), list(scope: IssuingDistributionPoint(uris: ["http://ca.test/other.crl"])), .unknown(.outOfScope)),
            ("same distribution point", leaf(), list(scope: IssuingDistributionPoint(uris: [leafURL])), revoked),
            ("CA certificates only, a leaf", leaf(), list(scope: IssuingDistributionPoint(onlyCACertificates: true)), .unknown(.outOfScope)),
            ("user certificates only, a CA", leaf(isCA: true), list(scope: IssuingDistributionPoint(onlyUserCertificates: true)), .unknown(.outOfScope)),
            ("attribute certificates only", leaf(), list(scope: IssuingDistributionPoint(onlyAttributeCertificates: true)), .unknown(.outOfScope)),
            ("some reasons, listed", leaf(), list(scope: IssuingDistributionPoint(onlySomeReasons: true)), revoked),
            ("some reasons, not listed", leaf(serial: "65"), list(scope: IssuingDistributionPoint(onlySomeReasons: true)), .unknown(.unsupported)),
            ("removeFromCRL", leaf(), list(revoked: ["64": RevokedEntry(revokedAt: now, reason: .removeFromCRL)]), .notRevoked(nextUpdate: now + 86_400)),
        ]
        for (name, certificate, list, expected) in rows {
            XCTAssertEqual(RevocationJudge.judge(certificate, on: list, now: now), expected, name)
        }
    }

    func testOnlyAValidListsAnswerBecomesASeries() {
        XCTAssertEqual(RevocationState.revoked(at: now, reason: nil).metricValue, 1)
        XCTAssertEqual(RevocationState.notRevoked(nextUpdate: now).metricValue, 0)
        XCTAssertNil(RevocationState.unknown(.badSignature).metricValue)
    }
}
