import Foundation
import PinGuardCore
@testable import PinGuardService
import XCTest

/// The status page at `/`: problems first, every value escaped, the forecast and renewals shown.
final class StatusPageTests: XCTestCase {
    private func leaf(_ key: UInt8) -> ChainCertificate {
        ChainCertificate(depth: 0, subject: "CN=a", issuer: "CN=ca", notBefore: Date(timeIntervalSince1970: 1_799_000_000),
                         notAfter: Date(timeIntervalSince1970: 1_801_000_000), spkiSHA256: String(repeating: "\(key)", count: 4),
                         certSHA256: "c\(key)")
    }

    private func result(_ name: String, key: UInt8, pinned: UInt8) -> TargetResult {
        let set = PolicySet(name: "ios-app", environments: ["prod": PolicyEnvironment(rules: [
            PatternRule(pattern: try! HostPattern.parse("**.example"), policy: HostPolicy(pins: [Pin(hash: String(repeating: "\(pinned)", count: 4))])),
        ])])
        let facts = ProbeFacts(host: "a.example", port: 443, servedChain: [leaf(key)], verifiedChain: [leaf(key)], trusted: true,
                               finishedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var r = TargetResult.evaluate(facts, target: Target(host: "a.example", name: name), sets: [set], now: facts.finishedAt)
        r.forecast(with: RenewalOutlook(nextRenewal: Date(timeIntervalSince1970: 1_800_500_000), key: .rotate, keyBasis: .declared,
                                        issuers: [IssuerOption(name: "R11", chain: [])], issuerBasis: .current), sets: [set])
        return r
    }

    func testRejectsComeFirstAndEveryValueIsEscaped() {
        var s = MetricsSnapshot()
        s.roundTimestamp = Date(timeIntervalSince1970: 1_800_000_000)
        s.results = [result("fine", key: 1, pinned: 1), result("<script>alert(1)</script>", key: 2, pinned: 1)]
        s.memory.targets = [TargetMemoryFacts(target: "fine", renewals: RenewalSummary(renewals: 2, lastRenewal: 1_799_000_000,
                                                                                    lastKeyReused: true), keyFirstSeen: [])]
        let page = StatusPage.render(s)
        XCTAssertFalse(page.contains("<script>"), "target names are escaped")
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let rows = page.components(separatedBy: "<tr><td>").dropFirst()
        XCTAssertTrue(rows.first?.contains("REJECT") == true, "the rejecting target comes first: \(rows.first ?? "")")
        XCTAssertTrue(rows.contains { $0.hasPrefix("fine</td>") && $0.contains("100%") }, "a new key breaks the leaf pin: \(page)")
        XCTAssertTrue(page.contains("<td>fine</td><td>2</td>"), "renewals observed are listed")
        XCTAssertTrue(page.contains("<td>11.6</td>"), "days to expiry relative to the last round")
    }
}
