import Foundation
import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// A log list is a file or its publisher's URL; a fetched one never replaces a newer one in force.
final class CTLogListSourceTests: XCTestCase {
    func testPublisherURLsParseWithTheirKeyAndRefresh() throws {
        let c = try ServiceConfigParser.parse("""
        ct:
          log_lists:
            chrome: https://www.gstatic.com/ct/log_list/v3/log_list.json
            apple: https://valid.apple.com/ct/log_list/current_log_list.json
          log_list_keys: {chrome: keys/chrome.pem}
          refresh: 6h
        """, file: "c.yml")
        XCTAssertEqual(CTLogListSource(configured: c.ctLogLists[.chrome]), .url(CTLogListName.chrome.publishedURL))
        XCTAssertEqual(CTLogListSource(configured: c.ctLogLists[.apple]), .url(CTLogListName.apple.publishedURL))
        XCTAssertEqual(c.ctLogListKeys[.chrome], "keys/chrome.pem")
        XCTAssertEqual(c.ctRefresh, 6 * 3_600)
    }

    func testRefreshDefaultsToADayAndAFileStaysAFile() throws {
        let c = try ServiceConfigParser.parse("ct: {log_lists: {chrome: lists/chrome.json}}", file: "c.yml")
        XCTAssertEqual(c.ctRefresh, 86_400)
        XCTAssertEqual(CTLogListSource(configured: c.ctLogLists[.chrome]), .file("lists/chrome.json"))
        XCTAssertEqual(CTLogListSource(configured: c.ctLogLists[.apple]), .bundled)
    }

    func testTheSignatureIsTheSameURLWithSigForJSON() {
        XCTAssertEqual(CTLogListSource.signatureURL(of: "https://www.gstatic.com/ct/log_list/v3/log_list.json"),
                       "https://www.gstatic.com/ct/log_list/v3/log_list.sig")
        XCTAssertEqual(CTLogListSource.signatureURL(of: "https://127.0.0.1:8443/all_logs_list.json?v=2"),
                       "https://127.0.0.1:8443/all_logs_list.sig?v=2")
        XCTAssertNil(CTLogListSource.signatureURL(of: "https://lists.example/log_list.json.gz"))
    }

    func testOnlyHTTPSWithAHostIsAURLToFetch() {
        XCTAssertTrue(CTLogListSource.isHTTPS("https://127.0.0.1:8443/log_list.json"))
        XCTAssertFalse(CTLogListSource.isHTTPS("https:///log_list.json"))
        XCTAssertFalse(CTLogListSource.isHTTPS("http://lists.example/log_list.json"))
        XCTAssertFalse(CTLogListSource.isHTTPS("https://lists.example/a list.json"))
    }

    func testAnOlderListIsRefusedAndASameDatedOrNewerOneTaken() {
        let held = CTFixtures.list(.chrome, publishedDaysAgo: 10)
        XCTAssertEqual(CTLogListAdmission.judge(CTFixtures.list(.chrome, publishedDaysAgo: 3), held: held), .take)
        XCTAssertEqual(CTLogListAdmission.judge(CTFixtures.list(.chrome, publishedDaysAgo: 10), held: held), .take)
        XCTAssertEqual(CTLogListAdmission.judge(CTFixtures.list(.chrome, publishedDaysAgo: 3), held: nil), .take)
        guard case .refuse(let reason) = CTLogListAdmission.judge(CTFixtures.list(.chrome, publishedDaysAgo: 40), held: held) else {
            return XCTFail("a list older than the one in force was taken")
        }
        XCTAssertEqual(reason, "it is older (\(RFC3339.format(CTFixtures.day(-40)))) than the list in force (\(RFC3339.format(CTFixtures.day(-10))))")
    }
}
