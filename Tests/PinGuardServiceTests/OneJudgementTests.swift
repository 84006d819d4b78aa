import Foundation
import PinGuardCore
import PinGuardService
import PinGuardServiceTestSupport
import XCTest

/// Every result the service holds is judged by one call (decisions, CT verdicts, forecast) with what is in
/// force: the forecast never lags behind a renewal observed in the same round, a reload, or a probe that lands
/// after a reload.
final class OneJudgementTests: XCTestCase {
    static let key = InProcessService.pin(byte: 0x11)
    static let backup = InProcessService.pin(byte: 0x22)

    static func service(renewal: String = "") throws -> InProcessService {
        let s = try InProcessService(config: InProcessService.config(hosts: ["a.test"]) + renewal, policies: [
            "app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [key, backup]),
        ])
        serve(s, serial: "01", certificate: 0xEE)
        return s
    }

    /// `a.test` serves a leaf on `key` issued now (serial `serial`) under a CA, for 90 days.
    static func serve(_ s: InProcessService, serial: String, certificate: UInt8) {
        let now = s.clock.now
        let ca = ChainCertificate(depth: 1, subject: "CN=Test CA", issuer: "CN=Test CA", serial: "CA", notBefore: now.addingTimeInterval(-400 * 86_400),
                                  notAfter: now.addingTimeInterval(3000 * 86_400), spkiSHA256: InProcessService.pin(byte: 0x33),
                                  certSHA256: InProcessService.pin(byte: 0x44), isCA: true, selfIssued: true)
        let leaf = ChainCertificate(depth: 0, subject: "CN=a.test", issuer: "CN=Test CA", serial: serial, notBefore: now.addingTimeInterval(-3_600),
                                    notAfter: now.addingTimeInterval(90 * 86_400), spkiSHA256: key,
                                    certSHA256: InProcessService.pin(byte: certificate))
        s.executor.answer("a.test", with: ProbeFacts(host: "a.test", port: 443, duration: 0.01, tlsVersion: "TLSv1.3",
                                                     servedChain: [leaf, ca], verifiedChain: [leaf, ca], trusted: true, finishedAt: now))
    }

    /// `a.test` now serves a renewed certificate (a new serial, issued now) on the same key.
    static func renew(_ s: InProcessService) { serve(s, serial: "02", certificate: 0xEF) }

    func outlook(_ s: InProcessService) throws -> RenewalOutlook {
        try XCTUnwrap(s.runtime.snapshot().results.first?.outlook, "every judged result with a chain has a forecast")
    }

    func testTheRoundThatObservesARenewalForecastsWithIt() async throws {
        let s = try Self.service()
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(try outlook(s).keyBasis, .unknown, "nothing observed yet")
        s.clock.advance(by: 86_400)
        Self.renew(s)
        _ = await s.runtime.runRound(spread: false)
        let o = try outlook(s)
        XCTAssertEqual([o.key.rawValue, o.keyBasis.rawValue], ["reuse", "observed"], "the renewal this round observed kept the key")
        XCTAssertEqual(s.runtime.snapshot().results.first?.forecasts.first?.rejectRatio, 0)
    }

    func testARenewalEditIsForecastAtTheReloadWithoutANewProbe() async throws {
        let s = try Self.service()
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(try outlook(s).key, .unknown)
        let probes = s.executor.probes.count
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test"]) + "renewal: {key: reuse, before: 10d}\n")
        _ = try await s.runtime.reload(trigger: "test").get()
        let o = try outlook(s)
        XCTAssertEqual([o.key.rawValue, o.keyBasis.rawValue], ["reuse", "declared"])
        let leaf = try XCTUnwrap(s.runtime.snapshot().results.first?.nodes.first?.facts.servedChain.first)
        XCTAssertEqual(o.nextRenewal, leaf.notAfter.addingTimeInterval(-10 * 86_400), "renewal.before is read at the reload")
        XCTAssertEqual(s.executor.probes.count, probes, "no probe was needed")
    }

    func testAPolicyEditIsForecastAtTheReload() async throws {
        let s = try Self.service()
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(s.runtime.snapshot().results.first?.forecasts.first?.safeKeys.pinnedBackups, [Self.backup])
        try s.rewrite("policies/app.yml", InProcessService.policy(name: "app", pattern: "**.test", pins: [Self.key]))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertEqual(s.runtime.snapshot().results.first?.forecasts.first?.safeKeys.pinnedBackups, [], "the backup pin is gone")
    }

    func testAProbeThatLandsAfterAReloadIsJudgedWithItsForecast() async throws {
        let s = try Self.service()
        s.executor.hold("a.test")
        let round = Task { await s.runtime.runRound(spread: false) }
        while s.executor.heldProbes < 1 { await Task.yield() }
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test"]) + "renewal: {key: reuse}\n")
        _ = try await s.runtime.reload(trigger: "test").get()
        s.executor.release("a.test")
        _ = await round.value
        let o = try outlook(s)
        XCTAssertEqual([o.key.rawValue, o.keyBasis.rawValue], ["reuse", "declared"], "judged by the configuration in force")
    }
}
