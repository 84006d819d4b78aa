import Foundation
import XCTest
@testable import PinGuardCore
import PinGuardTestSupport

/// Families almost always at one value are written only when they say something else (docs/reference.md,
/// Series budget): each is absent at its default and appears when the fact does.
final class SeriesAtTheirDefaultTests: XCTestCase {
    typealias F = ResultFixtures

    let set = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin, F.caPin]))])

    private func render(_ results: [TargetResult], memory: [TargetMemoryFacts] = []) -> [ExpositionSample] {
        var s = MetricsSnapshot()
        s.results = results
        s.targets = results.count
        s.memory.targets = memory
        return String(decoding: MetricsRenderer.render(s), as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.compactMap { ExpositionSample($0) }
    }

    private func values(_ samples: [ExpositionSample], _ name: String) -> [Double] {
        samples.filter { $0.name == name }.map(\.value)
    }

    private func forecast(_ facts: ProbeFacts, key: RenewalOutlook.Key? = nil, sets: [PolicySet]) -> TargetResult {
        let outlooks = DeclaredRenewalOutlook(settings: RenewalSettings(key: key), catalog: .empty)
        return Judge(sets: sets, renewals: outlooks).judge(facts, target: F.target("api"), now: F.now)
    }

    func testARenewalCounterAtZeroIsNotWrittenAndAppearsAfterARenewal() {
        let none = TargetMemoryFacts(target: "api", renewals: RenewalSummary(), keyFirstSeen: [])
        XCTAssertEqual(values(render([], memory: [none]), "pinguard_renewals_observed_total"), [])
        XCTAssertEqual(values(render([], memory: [none]), "pinguard_last_renewal_timestamp_seconds"), [])
        let renewed = TargetMemoryFacts(target: "api", renewals: RenewalSummary(renewals: 1, lastRenewal: 1_790_000_000),
                                        keyFirstSeen: [])
        XCTAssertEqual(values(render([], memory: [renewed]), "pinguard_renewals_observed_total"), [1])
        XCTAssertEqual(values(render([], memory: [renewed]), "pinguard_last_renewal_timestamp_seconds"), [1_790_000_000])
        XCTAssertFalse(none.isReported, "the memory keeps no facts of a target with nothing to report")
        XCTAssertTrue(renewed.isReported)
    }

    func testARejectRatioAtZeroIsNotWrittenAndABreakingOneIs() {
        let safe = forecast(F.facts(), sets: [set])
        XCTAssertEqual(safe.forecasts.map(\.rejectRatio), [0])
        let samples = render([safe])
        XCTAssertEqual(values(samples, "pinguard_renewal_reject_ratio"), [], "survives every renewal: nothing to say")
        XCTAssertEqual(values(samples, "pinguard_next_renewal_timestamp_seconds").count, 1, "the forecast was made")
        XCTAssertEqual(values(samples, "pinguard_renewal_forecast_info"), [], "it assumed nothing beyond the served chain")
        let leafOnly = F.set("app", [("api.example.com", HostPolicy(pins: [F.leafPin]))])
        let breaking = render([forecast(F.facts(), sets: [leafOnly])])
        XCTAssertEqual(values(breaking, "pinguard_renewal_reject_ratio"), [1])
        XCTAssertEqual(values(breaking, "pinguard_pin_breakage_timestamp_seconds").count, 1)
    }

    func testAForecastInfoIsWrittenWhenTheForecastKnowsSomething() {
        let declared = render([forecast(F.facts(), key: .reuse, sets: [set])])
        XCTAssertEqual(declared.filter { $0.name == "pinguard_renewal_forecast_info" }.map { $0.labels["key_basis"] }, ["declared"])
    }

    func testTrustAddressesCipherAndGroupAreWrittenOnlyAwayFromTheUsual() {
        var usual = F.facts()
        usual.tlsCipher = PinGuardMetrics.usualCipher
        usual.tlsGroup = PinGuardMetrics.usualGroup
        let quiet = render([F.result(F.target("api"), usual, [set])])
        for name in ["pinguard_chain_trusted", "pinguard_target_addresses", "pinguard_tls_cipher_info", "pinguard_tls_group_info"] {
            XCTAssertEqual(values(quiet, name), [], name)
        }
        var unusual = F.facts(trusted: false)
        unusual.tlsCipher = "TLS_CHACHA20_POLY1305_SHA256"
        unusual.tlsGroup = "secp384r1"
        let loud = render([F.result(F.target("api"), unusual, [set])])
        XCTAssertEqual(values(loud, "pinguard_chain_trusted"), [0])
        XCTAssertEqual(loud.filter { $0.name == "pinguard_tls_cipher_info" }.map { $0.labels["cipher"] }, ["TLS_CHACHA20_POLY1305_SHA256"])
        XCTAssertEqual(loud.filter { $0.name == "pinguard_tls_group_info" }.map { $0.labels["group"] }, ["secp384r1"])
        let pool = F.result(F.target("api"), nodes: [F.at("10.0.0.1:443", usual), F.at("10.0.0.2:443", usual)], [set])
        XCTAssertEqual(values(render([pool]), "pinguard_target_addresses"), [2])
    }
}
