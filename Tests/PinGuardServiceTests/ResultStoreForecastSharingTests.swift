import Foundation
import PinGuardCore
import PinGuardCoreTestSupport
@testable import PinGuardService
import XCTest

/// A `ResultStore` holds once the forecast arrays and issuer pools its results have alike (every target no
/// renewal breaks, every target of one CA), and keeps each result's own when it differs.
final class ResultStoreForecastSharingTests: XCTestCase {
    typealias F = ResultFixtures

    private func store(_ count: Int) -> ResultStore {
        var config = ServiceConfig()
        config.targets = (0..<count).map { F.target("t\($0)") }
        return ResultStore(config: config, sets: [])
    }

    private func forecast(_ result: TargetResult, ratio: Double, breakage: Date? = nil) -> TargetResult {
        var r = result
        let chain = Array(r.nodes[0].facts.evaluatedChain.dropFirst())
        r.outlook = RenewalOutlook(nextRenewal: F.now, key: .unknown, keyBasis: .unknown,
                                   issuers: [IssuerOption(name: "Intermediate", chain: chain)], issuerBasis: .current)
        r.forecasts = [SetForecast(policySet: "app", environment: "prod", rejectRatio: ratio, breakage: breakage, uncoveredIssuers: [],
                                   keyUnpinned: true)]
        return r
    }

    private func sameBuffer<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    func testEqualForecastsAndPoolsAreOneCopyAndADifferentOneIsKept() throws {
        let s = store(3)
        _ = s.record(forecast(F.result(F.target("t0"), F.facts(), []), ratio: 0), generation: 0, now: F.now)
        _ = s.record(forecast(F.result(F.target("t1"), F.facts(), []), ratio: 0), generation: 0, now: F.now)
        _ = s.record(forecast(F.result(F.target("t2"), F.facts(), []), ratio: 1, breakage: F.now), generation: 0, now: F.now)
        let a = try XCTUnwrap(s.result(named: "t0")), b = try XCTUnwrap(s.result(named: "t1")), c = try XCTUnwrap(s.result(named: "t2"))
        XCTAssertTrue(sameBuffer(a.forecasts, b.forecasts), "equal forecasts are held once")
        XCTAssertTrue(sameBuffer(try XCTUnwrap(a.outlook).issuers, try XCTUnwrap(b.outlook).issuers), "one CA's pool is held once")
        XCTAssertFalse(sameBuffer(a.forecasts, c.forecasts))
        XCTAssertEqual(c.forecasts.map(\.rejectRatio), [1], "a breaking forecast keeps its own")
        XCTAssertEqual(b.forecasts.map(\.rejectRatio), [0])
    }
}
