import Foundation
@testable import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import XCTest

/// Which CT log lists judging reads: the bundled copies, unless a replacement file is configured.
final class CTLogListsLoaderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-ct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    static let replacement = #"{"version": "9.9", "log_list_timestamp": "2026-11-01T00:00:00Z", "operators": [{"name": "Op", "logs": [{"log_id": "DleUvPOuqT4zGyyZB7P3kN+bwj1xMiXdIaklrGHFTiE=", "key": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEB/we6GOO/xwxivy4HhkrYFAAPo6e2nc346Wo2o2U+GvoPWSPJz91s/xrEvA3Bk9kWHUUXVZS5morFEzsgdHqPg==", "state": {"usable": {"timestamp": "2025-01-01T00:00:00Z"}}}]}]}"#

    func testBundledListsAreFoundAndRead() throws {
        let lists = try CTLogListsLoader.load(replacements: [:], relativeTo: nil)
        XCTAssertEqual(lists[.chrome]?.version, "89.25")
        XCTAssertEqual(lists[.apple]?.version, "511")
        XCTAssertEqual(lists[.chrome]?.origin, "bundled")
    }

    func testReplacementFileWinsOverTheBundledOne() throws {
        try Self.replacement.write(to: dir.appendingPathComponent("chrome.json"), atomically: true, encoding: .utf8)
        let lists = try CTLogListsLoader.load(replacements: [.chrome: "chrome.json"], relativeTo: dir.path)
        let chrome = try XCTUnwrap(lists[.chrome])
        XCTAssertEqual(chrome.version, "9.9")
        XCTAssertEqual(chrome.origin, dir.appendingPathComponent("chrome.json").path)
        XCTAssertEqual(chrome.logs.count, 1)
        XCTAssertEqual(lists[.apple]?.version, "511", "the other list stays the bundled one")
    }

    func testAListFileReadAgainUnchangedIsNotParsedAgainAndAChangedOneIs() throws {
        let file = dir.appendingPathComponent("chrome.json")
        try Self.replacement.write(to: file, atomically: true, encoding: .utf8)
        for _ in 0..<3 { XCTAssertEqual(try CTLogListsLoader.load(replacements: [.chrome: file.path], relativeTo: nil)[.chrome]?.version, "9.9") }
        XCTAssertEqual(CTLogListMemo.shared.parses(.chrome, file: file.path), 1, "the same bytes are parsed once")
        try Self.replacement.replacingOccurrences(of: "9.9", with: "9.8").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CTLogListsLoader.load(replacements: [.chrome: file.path], relativeTo: nil)[.chrome]?.version, "9.8",
                       "a file changed in place, the same size, is read anew")
        XCTAssertEqual(CTLogListMemo.shared.parses(.chrome, file: file.path), 2)
        try "{}".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try CTLogListsLoader.load(replacements: [.chrome: file.path], relativeTo: nil), "a broken file is refused, not answered from memory")
    }

    func testMissingReplacementNamesItsPath() {
        let path = dir.appendingPathComponent("absent.json").path
        XCTAssertThrowsError(try CTLogListsLoader.load(replacements: [.apple: path], relativeTo: "/elsewhere")) { error in
            XCTAssertEqual("\(error)", "\(path): apple CT log list: no such file")
        }
    }

    func testMissingBundledCopyIsRefused() {
        let nowhere = dir.appendingPathComponent("bin/pinguard")
        XCTAssertThrowsError(try CTLogListsLoader.bundled(.apple, executable: nowhere)) { error in
            XCTAssertEqual("\(error)", "ct_log_list_apple.json: the bundled apple CT log list is not found in $PINGUARD_DATA_DIR, next to pinguard (pinguard_PinGuardConfig.resources/) or in ../share/pinguard; set PINGUARD_DATA_DIR to the folder of pinguard's data files, or give a replacement file")
        }
    }
}
