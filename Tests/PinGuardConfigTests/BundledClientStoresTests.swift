import Foundation
import PinGuardConfig
import PinGuardCore
import XCTest

/// The bundled client trust stores load, say where they come from, and hold what their sources say.
final class BundledClientStoresTests: XCTestCase {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Sources/PinGuardConfig/Resources/\(ClientTrustStores.resourceName)").standardized.path

    func stores() throws -> [CTClient: ClientStoreData] {
        let all = try ClientTrustStores.bundled(path: Self.path)
        return Dictionary(all.map { ($0.client, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func testEachClientHasAStoreWithItsSourceAndVersions() throws {
        let s = try stores()
        XCTAssertEqual(Set(s.keys), [.android, .ios, .chrome, .jvm])
        XCTAssertEqual(s[.android]?.versionsKnown?.description, "24-37")
        XCTAssertEqual(s[.android]?.versionName, "Android API")
        XCTAssertNil(s[.jvm]?.versionsKnown)
        for store in s.values {
            XCTAssertFalse(store.source.isEmpty)
            XCTAssertGreaterThan(store.roots.count, 90, "\(store.client)")
        }
    }

    func testISRGRootsEnterEachStoreAtTheVersionTheSourcesSay() throws {
        let s = try stores()
        func versions(_ client: CTClient, _ name: String) -> String? {
            s[client]?.roots.first { $0.subject.hasPrefix("CN=\(name),") }?.versions?.description
        }
        XCTAssertEqual(versions(.android, "ISRG Root X1"), "25-")
        XCTAssertEqual(versions(.android, "ISRG Root X2"), "34-")
        XCTAssertEqual(versions(.ios, "ISRG Root X2"), "16-")
        XCTAssertFalse(s.values.contains { $0.roots.contains { $0.subject.contains("Root YE") || $0.subject.contains("Root YR") } },
                       "no store holds Let's Encrypt's Gen Y roots at the data's date")
    }

    func testChangesOnOrBeforeADateAreMadeAndLaterOnesStayAhead() throws {
        let chrome = try XCTUnwrap(stores()[.chrome])
        let dated = chrome.changes.compactMap(\.date).sorted()
        let cut = try XCTUnwrap(dated.first)
        let applied = chrome.applying(through: cut)
        XCTAssertTrue(applied.changes.allSatisfy { ($0.date ?? .distantFuture) > cut })
        let first = try XCTUnwrap(chrome.changes.first { $0.date == cut && $0.kind == .distrusted })
        XCTAssertEqual(applied.roots.first { $0.certSHA256 == first.certSHA256 }?.distrustAfter, cut)
    }

    func testADistrustDayEndsAtItsLastSecondAsChromesCutOffDoes() throws {
        let chrome = try XCTUnwrap(stores()[.chrome])
        let g2 = try XCTUnwrap(chrome.changes.first { $0.subject.hasPrefix("CN=DigiCert Assured ID Root G2,") && $0.kind == .distrusted })
        XCTAssertEqual(g2.date.map(RFC3339.format), "2026-06-30T23:59:59Z", "sct_not_after 2026-06-30T23:59:59Z")
    }

    func testAStoreOlderThanItsRefreshIntervalIsSaidWithWhatToDo() throws {
        let chrome = try XCTUnwrap(stores()[.chrome])
        let later = chrome.sourceDate.addingTimeInterval(Double(chrome.refreshDays + 10) * 86_400)
        XCTAssertTrue(chrome.isStale(at: later))
        XCTAssertFalse(chrome.isStale(at: chrome.sourceDate))
        let words = ClientTrustStores.staleWarning(chrome, now: later)
        XCTAssertTrue(words.contains("chrome") && words.contains("\(chrome.refreshDays + 10) days old") && words.contains("regenerate"), words)
    }

    func testAMalformedStoreFileIsRefusedNamingTheProblem() {
        let cases: [(String, String)] = [
            ("[]", "not a JSON object"),
            (#"{"format": 2}"#, "\"format\" is not 1"),
            (#"{"format": 1, "certificates": {}, "stores": [{"client": "nokia"}]}"#, "\"client\" is not"),
            (#"{"format": 1, "certificates": {"x": "AAAA"}, "stores": [{"client": "ios", "source": "s", "source_date": "2026-01-01", "refresh_days": 1, "roots": [{"certificate": "x"}]}]}"#, "does not hash to its name"),
            (#"{"format": 1, "certificates": {}, "stores": [{"client": "ios", "source": "s", "source_date": "2026-01-01", "refresh_days": 1, "versions_known": "9-3"}]}"#, "not a range"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ClientTrustStoresReader.read(Array(text.utf8), file: "stores.json"), text) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains("stores.json"), "\(error)")
            }
        }
    }
}
