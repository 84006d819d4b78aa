import Foundation
import PinGuardCore
import PinGuardFetchTestSupport
import PinGuardService
import PinGuardServiceTestSupport
import XCTest

/// The service asks a real HTTPS authority on loopback for the served leaf's renewal window, off the probe
/// path, and the forecast, the metrics and the situation follow the CA's word.
final class RenewalInfoServiceTests: XCTestCase {
    private let keyID = "69885B6B87464041E1B37B847BA0AE2CDE01C8D4"
    private let certID = "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AQ"

    /// A service probing api.test, whose leaf (serial 01) names `keyID`, with its CA at `authority`.
    private func service(_ authority: AuthorityServer, tls: AuthorityTLS, pinnedKey: String) throws -> InProcessService {
        let config = InProcessService.config(hosts: ["api.test"])
            + "fetch: {networks: [127.0.0.0/8], ca_file: \"\(tls.caFile)\", timeout: 10s}\n"
            + "renewal: {acme_directory: \"\(authority.url("/directory"))\"}\n"
        let s = try InProcessService(config: config, policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [pinnedKey])])
        let key = InProcessService.pin(byte: 1)
        var leaf = ChainCertificate(depth: 0, subject: "CN=api.test", issuer: "CN=Test CA", serial: "01",
                                    notBefore: s.clock.now.addingTimeInterval(-86_400), notAfter: s.clock.now.addingTimeInterval(89 * 86_400),
                                    spkiSHA256: key, certSHA256: InProcessService.pin(byte: 0xEE))
        leaf.authorityKeyID = keyID
        let ca = ChainCertificate(depth: 1, subject: "CN=Test CA", issuer: "CN=Test CA", serial: "02",
                                  notBefore: s.clock.now.addingTimeInterval(-86_400), notAfter: s.clock.now.addingTimeInterval(3650 * 86_400),
                                  spkiSHA256: InProcessService.pin(byte: 2), certSHA256: InProcessService.pin(byte: 0xEF), isCA: true, selfIssued: true)
        s.executor.answer("api.test", with: ProbeFacts(host: "api.test", port: 443, duration: 0.01, tlsVersion: "TLSv1.3", servedChain: [leaf, ca],
                                                        verifiedChain: [leaf, ca], trusted: true, finishedAt: s.clock.now))
        authority.route("/directory", .json(#"{"renewalInfo": "\#(authority.url("/renewal-info/"))"}"#))
        return s
    }

    private func firstRound(_ s: InProcessService) async throws -> Task<Void, Never> {
        let scheduler = Task { await RoundScheduler(runtime: s.runtime).run() }
        try await s.clock.waitForSleepers()
        return scheduler
    }

    func testTheCAsWindowIsTheForecastDateWithWhenBasisARI() async throws {
        let tls = try AuthorityTLS()
        let authority = try await AuthorityServer(tls: tls)
        let s = try service(authority, tls: tls, pinnedKey: InProcessService.pin(byte: 1))
        let start = s.clock.now.addingTimeInterval(20 * 86_400), end = s.clock.now.addingTimeInterval(22 * 86_400)
        authority.route("/renewal-info/\(certID)", .json(#"{"suggestedWindow": {"start": "\#(RFC3339.format(start))", "end": "\#(RFC3339.format(end))"}}"#))
        let scheduler = try await firstRound(s)
        defer { scheduler.cancel() }

        await s.runtime.checkRenewalInfo()
        let body = String(decoding: MetricsRenderer.render(s.runtime.snapshot()), as: UTF8.self)

        XCTAssertEqual(authority.requests("/renewal-info/\(certID)"), 1)
        XCTAssertTrue(body.contains("pinguard_next_renewal_timestamp_seconds{target=\"api.test\"} \(Int(start.timeIntervalSince1970))"), body)
        XCTAssertTrue(body.contains("pinguard_ari_window_end_timestamp_seconds{target=\"api.test\"} \(Int(end.timeIntervalSince1970))"))
        XCTAssertTrue(body.contains("when_basis=\"ari\"} 1"))
        await authority.stop()
    }

    func testAnIncidentWindowBecomesTheCriticalSituationOfTheAppItBreaks() async throws {
        let tls = try AuthorityTLS()
        let authority = try await AuthorityServer(tls: tls)
        // The app pins the served leaf key: a renewal with a fresh key breaks it.
        let s = try service(authority, tls: tls, pinnedKey: InProcessService.pin(byte: 1))
        let start = s.clock.now.addingTimeInterval(-3600), end = s.clock.now.addingTimeInterval(3600)
        authority.route("/renewal-info/\(certID)", .json(#"{"suggestedWindow": {"start": "\#(RFC3339.format(start))", "end": "\#(RFC3339.format(end))"}, "explanationURL": "https://ca.example/incident"}"#))
        let scheduler = try await firstRound(s)
        defer { scheduler.cancel() }

        await s.runtime.checkRenewalInfo()
        let result = try XCTUnwrap(s.runtime.snapshot().results.first)
        let situation = SituationAssessor.assess(result, now: s.clock.now).first

        XCTAssertEqual(situation?.kind, .earlyRenewalRequested)
        XCTAssertEqual(situation?.severity, .critical)
        XCTAssertEqual(situation?.action.contains("https://ca.example/incident"), true, situation?.action ?? "")
        XCTAssertEqual(EarlyRenewalEvents.changes(from: nil, to: result).map(\.event), [.earlyRenewalRequested])
        await authority.stop()
    }

    func testAnUnknownCertificateLeavesTheForecastAsItWas() async throws {
        let tls = try AuthorityTLS()
        let authority = try await AuthorityServer(tls: tls)
        let s = try service(authority, tls: tls, pinnedKey: InProcessService.pin(byte: 1))
        let scheduler = try await firstRound(s)
        defer { scheduler.cancel() }

        await s.runtime.checkRenewalInfo()
        let body = String(decoding: MetricsRenderer.render(s.runtime.snapshot()), as: UTF8.self)

        XCTAssertEqual(authority.requests("/renewal-info/\(certID)"), 1, "asked, and told 404")
        XCTAssertFalse(body.contains("pinguard_ari_window_start_timestamp_seconds{"))
        XCTAssertFalse(body.contains("when_basis=\"ari\""), "the date is not the CA's")
        XCTAssertTrue(body.contains("pinguard_next_renewal_timestamp_seconds{"), "the forecast is made from the lifetime, as before")
        XCTAssertNil(s.runtime.renewalInfo.status(certID: certID)?.lastError)
        await authority.stop()
    }
}
