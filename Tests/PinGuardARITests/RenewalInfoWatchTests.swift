import Foundation
import PinGuardARI
import PinGuardCore
import PinGuardFetch
import XCTest

/// Renewal information asked of a real HTTPS authority on loopback, through the guarded fetcher.
final class RenewalInfoWatchTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testTheLeafsIdentifierIsMadeFromItsAuthorityKeyIdentifierAndSerial() async throws {
        let ca = try await ACMEAuthority()
        XCTAssertTrue(ca.certID.hasSuffix(".AIdlQyE"), ca.certID)
        XCTAssertEqual(ca.chain[0].authorityKeyID?.count, 40, "a SHA-1 key identifier, in hex")
        await ca.server.stop()
    }

    func testANormalWindowBecomesTheForecastsNextRenewal() async throws {
        let ca = try await ACMEAuthority()
        let start = now.addingTimeInterval(30 * 86_400), end = now.addingTimeInterval(32 * 86_400)
        ca.serveWindow(start: start, end: end)
        let watch = try ca.watch()

        let changed = await watch.checkDue(now: now)
        let window = try XCTUnwrap(watch.window(certID: ca.certID))
        let outlook = try XCTUnwrap(RenewalOutlookBuilder.outlook(chain: ca.chain, settings: RenewalSettings(), staged: nil, observed: nil,
                                                                  pools: [:], catalog: .empty, window: window))

        XCTAssertEqual(changed, [ca.certID])
        XCTAssertEqual(outlook.nextRenewal, start)
        XCTAssertEqual(outlook.whenBasis, .ari)
        XCTAssertFalse(window.asksEarlyRenewal(now: now))
        XCTAssertEqual(ca.server.requests("/directory"), 1)
        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 1)
        await ca.server.stop()
    }

    func testAPastWindowWithAnExplanationAsksForEarlyRenewal() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(-7200), end: now.addingTimeInterval(-3600), explanation: "https://ca.example/incident")
        let watch = try ca.watch()

        await watch.checkDue(now: now)
        let window = try XCTUnwrap(watch.window(certID: ca.certID))

        XCTAssertEqual(window.explanationURL, "https://ca.example/incident")
        XCTAssertTrue(window.asksEarlyRenewal(now: now))
        await ca.server.stop()
    }

    func testAnUnknownCertificateIsNoWindowAndNoError() async throws {
        let ca = try await ACMEAuthority()
        let watch = try ca.watch()

        let changed = await watch.checkDue(now: now)
        let status = try XCTUnwrap(watch.status(certID: ca.certID))

        XCTAssertEqual(changed, [])
        XCTAssertNil(status.window)
        XCTAssertNil(status.lastError)
        XCTAssertEqual(status.failures, 0)
        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 1)
        await ca.server.stop()
    }

    func testRetryAfterIsHonouredClampedToAMinute() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400), retryAfter: "5")
        let watch = try ca.watch()

        await watch.checkDue(now: now)
        await watch.checkDue(now: now.addingTimeInterval(30))
        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 1, "asked again before the clamped minute")
        XCTAssertEqual(watch.status(certID: ca.certID)?.recheck, now.addingTimeInterval(60))
        await watch.checkDue(now: now.addingTimeInterval(61))

        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 2)
        XCTAssertEqual(ca.server.requests("/directory"), 1, "the directory is kept a day")
        await ca.server.stop()
    }

    func testALongRetryAfterIsClampedToADay() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400), retryAfter: "9999999")
        let watch = try ca.watch()

        await watch.checkDue(now: now)

        XCTAssertEqual(watch.status(certID: ca.certID)?.recheck, now.addingTimeInterval(86_400))
        await ca.server.stop()
    }

    func testErrorsBackOffAndKeepTheLastWindow() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400), retryAfter: "60")
        let watch = try ca.watch()
        await watch.checkDue(now: now)
        ca.server.route(ca.renewalInfoPath, .init(status: 500))

        await watch.checkDue(now: now.addingTimeInterval(60))
        let once = try XCTUnwrap(watch.status(certID: ca.certID))
        await watch.checkDue(now: once.recheck)
        let twice = try XCTUnwrap(watch.status(certID: ca.certID))

        XCTAssertEqual(once.recheck, now.addingTimeInterval(120))
        XCTAssertEqual(twice.recheck, once.recheck.addingTimeInterval(120))
        XCTAssertEqual(twice.failures, 2)
        XCTAssertEqual(twice.lastError?.contains("HTTP 500"), true, twice.lastError ?? "")
        XCTAssertNotNil(twice.window, "a failure does not forget the window")
        await ca.server.stop()
    }

    func testACertificateNoLongerServedIsNotAskedAgain() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400), retryAfter: "60")
        let watch = try ca.watch()
        await watch.checkDue(now: now)

        watch.track([])
        await watch.checkDue(now: now.addingTimeInterval(3600))

        XCTAssertNil(watch.status(certID: ca.certID))
        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 1)
        await ca.server.stop()
    }

    func testARestartReadsAFreshAnswerFromTheStoreInsteadOfAsking() async throws {
        let ca = try await ACMEAuthority()
        let start = now.addingTimeInterval(86_400)
        ca.serveWindow(start: start, end: now.addingTimeInterval(2 * 86_400))
        try await ca.watch().checkDue(now: now)

        let restarted = try ca.watch()
        await restarted.checkDue(now: now.addingTimeInterval(600))

        XCTAssertEqual(restarted.window(certID: ca.certID)?.start, start)
        XCTAssertEqual(ca.server.requests(ca.renewalInfoPath), 1)
        XCTAssertEqual(ca.server.requests("/directory"), 1)
        await ca.server.stop()
    }

    func testWithoutFetchNetworksTheLoopbackAuthorityIsNeverAsked() async throws {
        let ca = try await ACMEAuthority()
        ca.serveWindow(start: now.addingTimeInterval(86_400), end: now.addingTimeInterval(2 * 86_400))
        let watch = try ca.watch(loopbackAllowed: false)

        await watch.checkDue(now: now)
        let status = try XCTUnwrap(watch.status(certID: ca.certID))

        XCTAssertNil(status.window)
        XCTAssertEqual(status.lastError?.contains("fetch.networks"), true, status.lastError ?? "")
        XCTAssertEqual(ca.server.totalRequests, 0)
        await ca.server.stop()
    }
}
