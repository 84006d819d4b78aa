import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import XCTest

/// Which public suffix list lint uses: the bundled dated copy unless the system's is newer, and never none
/// silently.
final class PublicSuffixListLoaderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-psl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func write(_ name: String, _ text: String, modified: Date? = nil) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        return path
    }

    func testBundledCopyIsFoundAndIsTheRealList() throws {
        let path = try XCTUnwrap(PublicSuffixListLoader.bundledPath(), "the resource bundle is next to the test binary")
        let loaded = PublicSuffixListLoader.load(systemPath: dir.appendingPathComponent("none.dat").path, bundledPath: path)
        XCTAssertFalse(loaded.isMissing)
        XCTAssertEqual(loaded.source, "bundled copy (\(PublicSuffixListLoader.bundledDate))", "no build path in messages or SARIF")
        XCTAssertGreaterThan(loaded.list.count, 5_000)
        for d in ["co.uk", "github.io", "s3.amazonaws.com"] { XCTAssertTrue(loaded.list.isPublicSuffix(d), d) }
        XCTAssertFalse(loaded.list.isPublicSuffix("example.co.uk"))
    }

    func testNewerSystemListWinsByVersionLine() throws {
        let bundled = try write("bundled.dat", "com\n")
        let system = try write("system.dat", "// VERSION: 2026-10-01_07-00-00_UTC\ncom\nexample.test\n")
        let loaded = PublicSuffixListLoader.load(systemPath: system, bundledPath: bundled)
        XCTAssertEqual(loaded.source, "system copy \(system) (2026-10-01)")
        XCTAssertTrue(loaded.list.isPublicSuffix("example.test"))
    }

    func testOlderSystemListLosesByModificationDate() throws {
        let bundled = try write("bundled.dat", "com\nbundled.test\n")
        let system = try write("system.dat", "com\n", modified: Date(timeIntervalSince1970: 1_600_000_000))
        let loaded = PublicSuffixListLoader.load(systemPath: system, bundledPath: bundled)
        XCTAssertTrue(loaded.source.hasPrefix("bundled copy (\(PublicSuffixListLoader.bundledDate); not older than"), loaded.source)
        XCTAssertTrue(loaded.list.isPublicSuffix("bundled.test"))
    }

    func testNoListAtAllIsSaid() {
        let loaded = PublicSuffixListLoader.load(systemPath: dir.appendingPathComponent("a").path,
                                                 bundledPath: dir.appendingPathComponent("b").path)
        XCTAssertTrue(loaded.isMissing)
        XCTAssertTrue(loaded.source.hasPrefix("none:"), loaded.source)
    }

    func testVersionLine() {
        XCTAssertEqual(PublicSuffixListLoader.listDate("// header\n// VERSION: 2024-05-01_12-00-00_UTC\n// COMMIT: abc\ncom\n"), "2024-05-01")
        XCTAssertNil(PublicSuffixListLoader.listDate("// VERSION: soon\ncom\n"))
        XCTAssertNil(PublicSuffixListLoader.listDate("com\n"))
    }
}
