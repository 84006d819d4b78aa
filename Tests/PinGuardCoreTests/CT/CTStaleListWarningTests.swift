import Foundation
import XCTest
@testable import PinGuardCore

/// An old Chrome log list is worth a warning only when a policy set is judged with it.
final class CTStaleListWarningTests: XCTestCase {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func set(_ client: CTClient) -> PolicySet {
        var s = PolicySet(name: client.rawValue, environments: [:])
        s.client = client
        return s
    }

    func testAnOldChromeListWarnsOnlyWhenAChromeOrAndroidSetChecksCT() {
        let old = CTLogList(name: .chrome, version: "1", timestamp: Self.now.addingTimeInterval(-98 * 86_400), logs: [], origin: "bundled")
        let ct = CTSettings(lists: [.chrome: old], collect: true)
        XCTAssertEqual(ct.staleListWarnings(at: Self.now, sets: [Self.set(.ios), Self.set(.jvm)]), [],
                       "iOS reads Apple's list, a JVM client none: Chrome's list decides nothing for them")
        var android = Self.set(.android)
        XCTAssertEqual(ct.staleListWarnings(at: Self.now, sets: [android]), [], "Android without CT turned on does not read it")
        android.certificateTransparency = .required
        let warnings = ct.staleListWarnings(at: Self.now, sets: [Self.set(.ios), android])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("is 98 days old"), warnings[0])
        XCTAssertEqual(ct.staleListWarnings(at: Self.now, sets: [Self.set(.chrome)]).count, 1)
    }
}
