import Foundation
import PinGuardCoreTestSupport
import PinGuardTestSupport
import XCTest
@testable import PinGuardCore

/// What a revocation found on a served chain becomes: a series per address and depth, one journal event naming
/// the apps whose pins match the certificate, no change to any verdict, and no renewal forecast under a revoked
/// intermediate.
final class RevocationReportingTests: XCTestCase {
    typealias F = ResultFixtures
    let app = F.set("ios-app", [("api.example.com", HostPolicy(pins: [F.caPin, F.reservePin]))])
    let other = F.set("web", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
    let revokedAt = F.day(-2)

    /// The fixture probe with the intermediate (depth 1) revoked and the leaf listed as not revoked.
    func revokedIntermediate() -> ProbeFacts {
        var f = F.facts()
        f.revocation = [
            CertificateRevocation(depth: 0, url: "http://ca.test/int.crl", state: .notRevoked(nextUpdate: F.day(3))),
            CertificateRevocation(depth: 1, url: "http://ca.test/root.crl", state: .revoked(at: revokedAt, reason: .cACompromise)),
        ]
        return f
    }

    func testARevokedIntermediateIsOneEventNamingTheSetsThatPinIt() {
        var detector = EventDetector(warningDays: 30)
        let result = F.result(F.target("api"), revokedIntermediate(), [app, other])
        let events = detector.observe(result).filter { $0.event == .certificateRevoked }
        XCTAssertEqual(events.count, 1)
        let fields = Dictionary(events.first?.fields ?? [], uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["PINGUARD_DEPTH"], "1")
        XCTAssertEqual(fields["PINGUARD_SUBJECT"], "CN=Intermediate")
        XCTAssertEqual(fields["PINGUARD_SERIAL"], "0C")
        XCTAssertEqual(fields["PINGUARD_REVOKED_AT"], RFC3339.format(revokedAt))
        XCTAssertEqual(fields["PINGUARD_REVOCATION_REASON"], "cACompromise")
        XCTAssertEqual(fields["PINGUARD_PINNED_BY"], "ios-app/prod", "web pins the leaf, not the intermediate")
        XCTAssertEqual(fields["PINGUARD_ADDRESS"], "127.0.0.1:443")
        XCTAssertEqual(detector.observe(result).filter { $0.event == .certificateRevoked }.count, 0, "reported once")
    }

    func testRevocationChangesNoVerdict() {
        let plain = F.result(F.target("api"), F.facts(), [app, other])
        let revoked = F.result(F.target("api"), revokedIntermediate(), [app, other])
        XCTAssertEqual(revoked.evaluations.map(\.verdict), plain.evaluations.map(\.verdict))
        XCTAssertEqual(revoked.evaluations.map(\.verdict), [.accept, .accept])
    }

    func testTheSeriesIsOneForRevokedZeroForNotRevokedAndAbsentWhenUnknown() throws {
        var f = revokedIntermediate()
        f.revocation.append(CertificateRevocation(depth: 2, url: "http://ca.test/x.crl", state: .unknown(.badSignature)))
        var snapshot = MetricsSnapshot()
        snapshot.results = [F.result(F.target("api"), f, [app])]
        snapshot.crls = [CRLStatus(url: "http://ca.test/int.crl", nextUpdate: F.day(3), lastFetchSucceeded: true),
                         CRLStatus(url: "http://ca.test/x.crl", nextUpdate: nil, lastFetchSucceeded: false, lastFailure: .badSignature)]
        let e = try Exposition(String(decoding: MetricsRenderer.render(snapshot), as: UTF8.self))
        XCTAssertEqual(e.value("pinguard_certificate_revoked", ["depth": "1", "address": "127.0.0.1:443"]), 1)
        XCTAssertEqual(e.value("pinguard_certificate_revoked", ["depth": "0"]), 0)
        XCTAssertNil(e.value("pinguard_certificate_revoked", ["depth": "2"]))
        XCTAssertEqual(e.value("pinguard_crl_next_update_timestamp_seconds", ["url": "http://ca.test/int.crl"]), F.day(3).timeIntervalSince1970)
        XCTAssertNil(e.value("pinguard_crl_next_update_timestamp_seconds", ["url": "http://ca.test/x.crl"]))
        XCTAssertEqual(e.value("pinguard_crl_fetch_success", ["url": "http://ca.test/x.crl"]), 0)
        XCTAssertEqual(e.value("pinguard_crl_fetch_success", ["url": "http://ca.test/int.crl"]), 1)
    }

    func testTheForecastDropsARevokedIntermediateFromTheNextIssuers() throws {
        let spare = F.cert(1, spki: 5, cert: 15, notAfter: 800, subject: "CN=Spare")
        let pools = ["ca": [IssuerOption(name: "Intermediate", chain: [F.intermediate, F.root]), IssuerOption(name: "Spare", chain: [spare, F.root])]]
        let chain = F.facts().evaluatedChain
        let settings = RenewalSettings(issuers: "ca")
        let before = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: settings, staged: nil, observed: nil, pools: pools, catalog: .empty))
        XCTAssertEqual(before.issuers.map(\.name), ["Intermediate", "Spare"])
        let revoked = F.result(F.target("api"), revokedIntermediate(), [app]).revokedCertificates
        XCTAssertEqual(revoked, [F.intermediate.certSHA256])
        let after = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: chain, settings: settings, staged: nil, observed: nil, pools: pools,
                                                                 catalog: .empty, revoked: revoked))
        XCTAssertEqual(after.issuers.map(\.name), ["Spare"])
    }

    func testProbeJSONAndTheDebugLogShowEachCertificatesState() throws {
        let result = F.result(F.target("api"), revokedIntermediate(), [app])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ProbeReport(target: "api", result: result).json().utf8)) as? [String: Any])
        let node = try XCTUnwrap((json["addresses"] as? [[String: Any]])?.first)
        let states = try XCTUnwrap(node["revocation"] as? [[String: Any]])
        XCTAssertEqual(states.map { $0["state"] as? String }, ["not_revoked", "revoked"])
        XCTAssertEqual(states[1]["reason"] as? String, "cACompromise")
        XCTAssertEqual(states[1]["revoked_at"] as? String, RFC3339.format(revokedAt))
        XCTAssertTrue(ProbeLog.text(result).contains("depth 1: REVOKED at \(RFC3339.format(revokedAt)) (cACompromise), CRL http://ca.test/root.crl"),
                      ProbeLog.text(result))
    }
}
