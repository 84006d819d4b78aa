import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// `mtls_identity_used` / `mtls_identity_missing` (docs/reference.md, Journal events): written when the answer
/// to a server's request for a client certificate changes, not on every probe.
final class ClientAuthEventTests: XCTestCase {
    typealias F = ResultFixtures

    let app = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.reservePin]))])
    let target = F.target("api")

    func facts(requested: Bool, presented: Bool = false, identity: Bool = false, error: String? = nil) -> ProbeFacts {
        var f = F.facts()
        f.clientAuth = ClientAuthFacts(requested: requested, presented: presented,
                                       certificateSubject: identity ? "CN=probe" : nil,
                                       certificateNotAfter: identity ? F.now.addingTimeInterval(10 * 86_400) : nil, error: error)
        return f
    }

    func mtls(_ entries: [JournalEntry]) -> [JournalEntry] { entries.filter { $0.event.rawValue.hasPrefix("mtls_") } }

    func testAServerAskingWithoutAConfiguredIdentityIsReportedOnceAsMissing() throws {
        var d = EventDetector(warningDays: 30)
        let first = mtls(d.observe(F.result(target, facts(requested: true), [app])))
        XCTAssertEqual(first.map(\.event), [.mtlsIdentityMissing])
        let e = try XCTUnwrap(first.first)
        XCTAssertEqual(e.field("PINGUARD_ADDRESS"), "127.0.0.1:443")
        XCTAssertEqual(e.field("PRIORITY"), "4")
        XCTAssertNil(e.field("PINGUARD_CLIENT_CERT_SUBJECT"))
        XCTAssertTrue(e.message.contains("no client identity is configured"), e.message)
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: true), [app]))), [], "same state")
    }

    func testASentIdentityIsReportedWithTheClientCertificatesExpiry() throws {
        var d = EventDetector(warningDays: 30)
        let used = mtls(d.observe(F.result(target, facts(requested: true, presented: true, identity: true), [app])))
        XCTAssertEqual(used.map(\.event), [.mtlsIdentityUsed])
        let e = try XCTUnwrap(used.first)
        XCTAssertEqual(e.field("PINGUARD_CLIENT_CERT_SUBJECT"), "CN=probe")
        XCTAssertEqual(e.field("PINGUARD_CLIENT_CERT_NOT_AFTER"), RFC3339.format(F.now.addingTimeInterval(10 * 86_400)))
        XCTAssertEqual(e.field("PINGUARD_DAYS_TO_EXPIRY"), "10.0")
        XCTAssertEqual(e.field("PRIORITY"), "6")
        // The identity stops working (say the key no longer loads into the connection): reported as missing.
        let broken = mtls(d.observe(F.result(target, facts(requested: true, identity: true, error: "bad key"), [app])))
        XCTAssertEqual(broken.map(\.event), [.mtlsIdentityMissing])
        XCTAssertEqual(broken.first?.field("PINGUARD_ERROR"), "bad key")
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: true, presented: true, identity: true), [app]))).map(\.event),
                       [.mtlsIdentityUsed])
    }

    func testAServerThatDoesNotAskCausesNoEventAndAFailedProbeKeepsTheState() {
        var d = EventDetector(warningDays: 30)
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: false, identity: true), [app]))), [])
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: true), [app]))).map(\.event), [.mtlsIdentityMissing])
        // A probe that never reached the handshake says nothing about client certificates.
        XCTAssertEqual(mtls(d.observe(F.result(target, F.facts(error: "timeout"), [app]))), [])
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: true), [app]))), [], "still missing: not announced again")
        // The server stops asking, then asks again: announced again.
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: false), [app]))), [])
        XCTAssertEqual(mtls(d.observe(F.result(target, facts(requested: true), [app]))).map(\.event), [.mtlsIdentityMissing])
    }

    func testClientAuthenticationSeries() {
        var s = MetricsSnapshot()
        var asked = facts(requested: true, presented: true, identity: true)
        asked.address = "127.0.0.1:443"
        var unasked = F.target("unasked")
        unasked.clientIdentity = .pem(certificate: "client.pem", key: "client.key")
        s.results = [F.result(target, asked, [app]), F.result(F.target("plain"), F.facts(), [app]), F.result(unasked, F.facts(), [app])]
        let text = String(decoding: MetricsRenderer.render(s), as: UTF8.self)
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_requested{target=\"api\",address=\"127.0.0.1:443\"} 1\n"), text)
        XCTAssertFalse(text.contains("pinguard_mtls_client_certificate_requested{target=\"plain\""), "not asked, nothing to present: absent")
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_requested{target=\"unasked\",address=\"127.0.0.1:443\"} 0\n"),
                      "a target with an identity to present says that the server did not ask")
        XCTAssertTrue(text.contains("pinguard_mtls_client_certificate_presented{target=\"api\",address=\"127.0.0.1:443\"} 1\n"))
        XCTAssertFalse(text.contains("pinguard_mtls_client_certificate_presented{target=\"plain\""), "only when the server asked")
        let notAfter = Int(F.now.addingTimeInterval(10 * 86_400).timeIntervalSince1970)
        XCTAssertTrue(text.contains("pinguard_client_certificate_not_after_timestamp_seconds{target=\"api\"} \(notAfter)\n"))
        XCTAssertFalse(text.contains("pinguard_client_certificate_not_after_timestamp_seconds{target=\"plain\""))
    }

    func testClientIdentityKeysParse() throws {
        let c = try ServiceConfigParser.parse("""
        targets:
          - host: a.example.com
            client_cert: certs/client.pem
            client_key: certs/client.key
          - host: b.example.com
            client_cert: certs/both.pem
          - host: c.example.com
            client_pkcs12: certs/client.p12
            client_pkcs12_password_file: certs/p12.pass
          - host: d.example.com
            client_pkcs12: certs/nopass.p12
          - host: e.example.com
        """, file: "pinguard.yml")
        XCTAssertEqual(c.targets.map(\.clientIdentity), [
            .pem(certificate: "certs/client.pem", key: "certs/client.key"),
            .pem(certificate: "certs/both.pem", key: "certs/both.pem"),
            .pkcs12(file: "certs/client.p12", passwordFile: "certs/p12.pass"),
            .pkcs12(file: "certs/nopass.p12", passwordFile: nil),
            nil,
        ])
        XCTAssertEqual(c.lines["targets[2].client_pkcs12_password_file"], 9)
    }
}
