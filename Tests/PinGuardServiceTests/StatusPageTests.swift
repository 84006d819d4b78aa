import Foundation
import PinGuardCore
@testable import PinGuardReports
import PinGuardCoreTestSupport
@testable import PinGuardService
import XCTest

/// Results for the status page tests: one leaf-key pinned app.
enum StatusFixtures {
    static func leaf(_ key: UInt8) -> ChainCertificate {
        ChainCertificate(depth: 0, subject: "CN=a", issuer: "CN=ca", notBefore: Date(timeIntervalSince1970: 1_799_000_000),
                         notAfter: Date(timeIntervalSince1970: 1_801_000_000), spkiSHA256: String(repeating: "\(key)", count: 4),
                         certSHA256: "c\(key)")
    }

    static func result(_ name: String, key: UInt8, pinned: UInt8) -> TargetResult {
        let set = ResultFixtures.set("ios-app", [("**.example", HostPolicy(pins: [Pin(hash: String(repeating: "\(pinned)", count: 4))]))])
        let facts = ProbeFacts(host: "a.example", port: 443, servedChain: [leaf(key)], verifiedChain: [leaf(key)], trusted: true,
                               finishedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var r = TargetResult.evaluate(facts, target: ResultFixtures.target(name, host: "a.example"), sets: [set], now: facts.finishedAt)
        r.forecast(with: RenewalOutlook(nextRenewal: Date(timeIntervalSince1970: 1_800_500_000), key: .rotate, keyBasis: .declared,
                                        issuers: [IssuerOption(name: "R11", chain: [])], issuerBasis: .current), sets: [set])
        return r
    }
}

extension StatusFixtures {
    /// The rows of the page's verdicts table, from the target cell on.
    static func verdictRows(_ page: String) -> [String] {
        guard let verdicts = page.components(separatedBy: "<h2>Verdicts</h2>").last?.components(separatedBy: "</table>").first else { return [] }
        return verdicts.components(separatedBy: "><td><a href=\"/targets/").dropFirst().map { String($0) }
    }
}

/// The status page at `/`: problems first, every value escaped, the forecast and renewals shown.
final class StatusPageTests: XCTestCase {
    func testRejectsComeFirstAndEveryValueIsEscaped() {
        var s = MetricsSnapshot()
        s.roundTimestamp = Date(timeIntervalSince1970: 1_800_000_000)
        s.results = [StatusFixtures.result("fine", key: 1, pinned: 1), StatusFixtures.result("<script>alert(1)</script>", key: 2, pinned: 1)]
        s.memory.targets = [TargetMemoryFacts(target: "fine", renewals: RenewalSummary(renewals: 2, lastRenewal: 1_799_000_000,
                                                                                    lastKeyReused: true), keyFirstSeen: [])]
        let page = StatusPage.render(s)
        XCTAssertFalse(page.contains("<script>"), "target names are escaped")
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let rows = StatusFixtures.verdictRows(page)
        XCTAssertTrue(rows.first?.contains("REJECT") == true, "the rejecting target comes first: \(rows.first ?? "")")
        XCTAssertTrue(rows.contains { $0.contains(">fine</a></td>") && $0.contains("breaks 100%") }, "a new key breaks the leaf pin: \(page)")
        let problems = page.components(separatedBy: "<h2>Verdicts</h2>")[0]
        XCTAssertTrue(problems.contains("<tr class=\"critical\"><td>critical</td><td><a href=\"/targets/%3Cscript"), "the reject is the first problem")
        XCTAssertTrue(problems.contains("The next renewal of fine (due 2027-01-21) breaks ios-app (prod)"), problems)
        XCTAssertTrue(page.contains("<td>fine</td><td>2</td>"), "renewals observed are listed")
        XCTAssertTrue(page.contains("<td>11.6</td>"), "days to expiry relative to the last round")
    }
}

/// The status page's filters, paging and target pages.
final class StatusPagePagingTests: XCTestCase {
    func testRowsArePagedAndFilteredByApp() throws {
        var s = MetricsSnapshot()
        s.roundTimestamp = Date(timeIntervalSince1970: 1_800_000_000)
        s.results = (0..<1_200).map { StatusFixtures.result(String(format: "t%04d", $0), key: 1, pinned: 1) }
        let first = StatusPage.render(s, query: StatusQuery(uri: "/"))
        XCTAssertEqual(StatusFixtures.verdictRows(first).count, StatusPage.pageSize)
        XCTAssertTrue(first.contains("Page 1 of 3 (1200 rows)") && first.contains("href=\"/?page=2\">next</a>"), String(first.suffix(400)))
        let last = StatusPage.render(s, query: StatusQuery(uri: "/?page=3"))
        XCTAssertEqual(StatusFixtures.verdictRows(last).count, 200)
        let other = StatusPage.render(s, query: StatusQuery(uri: "/?app=nosuch"))
        XCTAssertEqual(StatusFixtures.verdictRows(other), [], "no row of another app")
    }

    func testATargetPageShowsItsChainMatchesAndLog() throws {
        let r = StatusFixtures.result("<b>api</b>", key: 1, pinned: 1)
        let page = TargetPage.render(r, memory: TargetMemoryFacts(target: "<b>api</b>", renewals: RenewalSummary(renewals: 1, lastRenewal: 1,
                                                                                                              lastKeyReused: true), keyFirstSeen: []))
        XCTAssertTrue(page.contains("<h1>&lt;b&gt;api&lt;/b&gt;</h1>"), page)
        XCTAssertTrue(page.contains("<td>0</td><td>CN=a</td><td>CN=ca</td><td><code>1111</code>"), page)
        XCTAssertTrue(page.contains("1 observed; the last kept the key"), page)
        XCTAssertTrue(page.contains("<h2>Last probe</h2>\n<pre>target &lt;b&gt;api&lt;/b&gt;"), page)
        XCTAssertEqual(StatusQuery(uri: "/?app=ios%20app&environment=prod&page=x").app, "ios app")
    }
}
