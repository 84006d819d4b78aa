import Foundation
import XCTest
import PinGuardCore
import PinGuardReadersTestSupport

/// A pool issuer known without its path (a pool file holding the issuing certificate alone) ends, when it is
/// the issuer serving today, at the root the served chain ends at: a root pin is then judged against that root,
/// not counted as broken. SHA-1 pins (OkHttp's `sha1/`) of a certificate the next chain shares match there too.
final class ForecastServedPathTests: XCTestCase {
    typealias S = ImportTestSupport
    let h = ImportTestSupport.h

    func rootPinned(_ pin: Pin) -> PolicySet {
        PolicySet(name: "app", environments: ["prod": PolicyEnvironment(rules: [
            PatternRule(pattern: .exact("api.example.com"), policy: HostPolicy(pins: [pin])),
        ])])
    }

    func outlook(_ path: ChainCertificate...) -> RenewalOutlook {
        RenewalOutlook(nextRenewal: S.now.addingTimeInterval(86_400 * 30), key: .rotate, keyBasis: .declared,
                       issuers: [IssuerOption(name: "pool", chain: path)], issuerBasis: .pool)
    }

    func testAPoolIssuerServingTodayEndsAtTheServedRoot() throws {
        let facts = S.facts(host: "api.example.com", leaf: h[0], intermediate: h[1], root: h[2])
        let issuerOnly = facts.verifiedChain[1]
        let set = rootPinned(Pin(type: .ca, hash: h[2], scope: .root))
        let f = try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook(issuerOnly), environment: "prod",
                                                         namedSets: nil, sets: [set]).first)
        XCTAssertEqual(f.rejectRatio, 0, "the next chain ends at the pinned root the served chain ends at")

        var stranger = issuerOnly
        stranger.spkiSHA256 = h[5]
        let other = try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook(stranger), environment: "prod",
                                                             namedSets: nil, sets: [set]).first)
        XCTAssertEqual(other.rejectRatio, 1, "an issuer not serving today keeps the path it was given")
    }

    func testASha1PinOfTheServedIssuerMatchesTheNextChain() throws {
        var facts = S.facts(host: "api.example.com", leaf: h[0], intermediate: h[1], root: h[2])
        let sha1 = "9lyQwHlQ5X4zGr2YF4P8s2J7eEk="
        facts.verifiedChain[1].spkiSHA1 = sha1
        var catalogIssuer = facts.verifiedChain[1]
        catalogIssuer.spkiSHA1 = nil
        let set = rootPinned(Pin(type: .spki, hash: sha1, algorithm: .sha1))
        let f = try XCTUnwrap(RenewalForecaster.forecast(facts, outlook: outlook(catalogIssuer, facts.verifiedChain[2]), environment: "prod",
                                                         namedSets: nil, sets: [set]).first)
        XCTAssertEqual(f.rejectRatio, 0, "the catalog knows the issuer by SHA-256 only; the served one gives its SHA-1")
    }
}
