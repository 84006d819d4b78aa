import Foundation
import XCTest
@testable import PinGuardCore
import PinGuardCoreTestSupport

/// Expiry and renewal are measured against the certificate's own lifetime: a certificate renewed on schedule
/// never reaches anyone, at any lifetime from 6 days to 398.
final class SituationScheduleTests: XCTestCase {
    typealias F = ResultFixtures
    static let day: TimeInterval = 86_400
    static let lifetimes: [Double] = [6, 45, 90, 200, 398]

    /// A CA-pinned app (every renewal under the same intermediate is accepted), the leaf `age` days old of `lifetime`.
    static func result(lifetime: Double, age: Double, stagedNewer: Bool = false) -> TargetResult {
        var facts = F.facts()
        facts.servedChain[0].notBefore = F.day(-age)
        facts.servedChain[0].notAfter = F.day(lifetime - age)
        facts.verifiedChain[0] = facts.servedChain[0]
        let sets = [F.set("app", [("api.example.com", HostPolicy(pins: [F.caPin, F.reservePin]))])]
        var r = F.result(F.target("api"), facts, sets)
        var staged: [ChainCertificate]? = nil
        if stagedNewer {
            var next = facts.servedChain[0]
            next.notBefore = F.day(-0.5)
            next.notAfter = F.day(lifetime - 0.5)
            staged = [next, F.intermediate]
        }
        r.forecast(with: RenewalOutlookBuilder.outlook(chain: facts.evaluatedChain, settings: RenewalSettings(), staged: staged,
                                                       stagedFile: "/etc/ssl/next.pem", observed: nil, pools: [:], catalog: .empty),
                   sets: sets)
        return r
    }

    static func reported(_ r: TargetResult) -> [Situation] {
        SituationAssessor.assess(r, now: F.now).filter(\.isReported)
    }

    func testACertificateRenewedOnScheduleNeverAlertsAtAnyLifetime() {
        for lifetime in Self.lifetimes {
            // From issue to the expected renewal (a third of the lifetime before notAfter), and through the grace.
            let renewal = lifetime * 2 / 3
            for step in 0...60 {
                let age = renewal * Double(step) / 60
                XCTAssertEqual(Self.reported(Self.result(lifetime: lifetime, age: age)), [], "\(lifetime)-day certificate at day \(age)")
            }
        }
    }

    func testAnOverdueRenewalWarnsAndACertificateWithNothingInPlaceIsCriticalRelativeToItsLifetime() throws {
        // lifetime: (overdue from day, critical from day)
        let edges: [Double: (Double, Double)] = [6: (4.25, 4.5), 45: (31, 38), 90: (61, 83), 200: (134.33, 193), 398: (266.33, 391)]
        for (lifetime, (overdue, critical)) in edges {
            XCTAssertEqual(Self.reported(Self.result(lifetime: lifetime, age: overdue - 0.02)), [], "\(lifetime) days, just before overdue")
            let warning = try XCTUnwrap(Self.reported(Self.result(lifetime: lifetime, age: overdue + 0.02)).first)
            XCTAssertEqual("\(warning.kind)/\(warning.severity)", "renewalOverdue/warning", "\(lifetime) days")
            XCTAssertEqual(warning.policySet, "", "a problem of the certificate is the target's, for every app")
            XCTAssertEqual(warning.apps, ["app/prod"])
            let late = try XCTUnwrap(Self.reported(Self.result(lifetime: lifetime, age: critical + 0.02)).first)
            XCTAssertEqual("\(late.kind)/\(late.severity)", "expiresUnrenewed/critical", "\(lifetime) days")
            XCTAssertEqual(Self.reported(Self.result(lifetime: lifetime, age: critical + 0.02)).count, 1, "one problem, one situation")
        }
    }

    func testARenewalStagedInFilesKeepsAnExpiringCertificateAWarningThatSaysToDeployIt() throws {
        let s = try XCTUnwrap(Self.reported(Self.result(lifetime: 90, age: 86, stagedNewer: true)).first)
        XCTAssertEqual("\(s.kind)/\(s.severity)", "renewalOverdue/warning")
        XCTAssertTrue(s.action.contains("Deploy the staged renewal /etc/ssl/next.pem"), s.action)
    }

    func testTheScheduleTableOfTheDocumentation() {
        let s = CertificateSchedule(notBefore: F.day(0), notAfter: F.day(6), renewal: F.day(4))
        XCTAssertEqual(s.criticalWindow, 1.5 * Self.day)
        XCTAssertEqual(s.overdueGrace, 0.25 * Self.day)
        let long = CertificateSchedule(notBefore: F.day(0), notAfter: F.day(398), renewal: F.day(265))
        XCTAssertEqual(long.criticalWindow, 7 * Self.day)
        XCTAssertEqual(long.overdueGrace, Self.day)
    }
}
