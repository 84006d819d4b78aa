import Foundation
import PinGuardCore
@testable import PinGuardService
import XCTest

/// What the store judges later (a forecast made again when a renewal window moves or a certificate is revoked)
/// uses the judgement in force, with the staged chains of `files:` as last judged, never the ones staged when
/// the configuration was loaded: a staged renewal does not vanish from a forecast for a moment.
final class ResultStoreJudgeInForceTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// An outlook whose staged leaf is `staged`, for every result.
    struct Outlooks: RenewalOutlookSource {
        let staged: ChainCertificate?
        let renewal: Date
        func outlook(for result: TargetResult) -> RenewalOutlook? {
            RenewalOutlook(nextRenewal: renewal, key: .reuse, keyBasis: staged == nil ? .declared : .staged, stagedLeaf: staged,
                           issuers: [], issuerBasis: .current)
        }
    }

    func testAForecastMadeAgainSeesTheChainsStagedSinceTheLoad() throws {
        let leaf = ChainCertificate(depth: 0, subject: "CN=t.example", issuer: "CN=CA", serial: "01",
                                    notBefore: now.addingTimeInterval(-86_400 * 85), notAfter: now.addingTimeInterval(86_400 * 5),
                                    spkiSHA256: Base64.encode([UInt8](repeating: 1, count: 32)),
                                    certSHA256: Base64.encode([UInt8](repeating: 2, count: 32)))
        var next = leaf
        next.notBefore = now
        next.notAfter = now.addingTimeInterval(86_400 * 90)
        let facts = ProbeFacts(host: "t.example", port: 443, address: "127.0.0.1:443", tlsVersion: "TLSv1.3", servedChain: [leaf],
                               verifiedChain: [leaf], trusted: true, finishedAt: now)
        var config = ServiceConfig()
        config.targets = [Target(host: "t.example", name: "t")]
        let atLoad = Judge(sets: [], renewals: Outlooks(staged: nil, renewal: now))
        let store = ResultStore(config: config, judge: atLoad)
        let withStaged = Judge(sets: [], renewals: Outlooks(staged: next, renewal: now))
        _ = store.record(withStaged.judge(facts, target: config.targets[0], now: now), generation: store.generation, now: now)
        XCTAssertNotNil(store.result(named: "t")?.outlook?.stagedLeaf, "judged by the round, with the staged chain")

        store.use(withStaged)
        _ = store.reforecast(targets: ["t"])
        XCTAssertEqual(store.result(named: "t")?.outlook?.stagedLeaf, next, "the forecast made again keeps the staged chain")
        let situations = SituationAssessor.assess(try XCTUnwrap(store.result(named: "t")), now: now)
        XCTAssertFalse(situations.contains { $0.kind == .expiresUnrenewed }, "5 days left, but a renewal is staged: \(situations.map(\.kind))")
    }
}
