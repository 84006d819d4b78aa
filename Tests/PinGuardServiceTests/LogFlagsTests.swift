import Foundation
import PinGuardTestSupport
import XCTest

/// `serve --log.format` writes the service's lines as logfmt or JSON, and `--log.level` drops the lines below a
/// level, as Prometheus' exporters do; a journal event echoed on stderr takes its priority's level.
final class LogFlagsTests: XCTestCase {
    func testJSONLinesCarryTheLevelAndTheMessage() throws {
        let r = try PinguardCLI.run(["serve", "--config", "/nonexistent.yml", "--log.format", "json"], timeout: 30)
        XCTAssertEqual(r.status, 2, "\(r)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.isEmpty)
        var levels: [String] = []
        for line in lines {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertNotNil(object["ts"] as? String, line)
            levels.append(object["level"] as? String ?? "?")
        }
        let objects = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let failure = try XCTUnwrap(objects.first { $0["msg"] as? String == "/nonexistent.yml: no such file" }, r.stderr)
        XCTAssertEqual(failure["level"] as? String, "error")
        XCTAssertTrue(levels.contains("warn") || levels.contains("info"), "the other lines keep their own levels: \(levels)")
    }

    func testTheLevelDropsTheLinesBelowItInLogfmt() throws {
        let all = try PinguardCLI.run(["serve", "--config", "/nonexistent.yml", "--log.format", "logfmt"], timeout: 30)
        let errors = try PinguardCLI.run(["serve", "--config", "/nonexistent.yml", "--log.format", "logfmt", "--log.level", "error"],
                                         timeout: 30)
        XCTAssertEqual(errors.status, 2, "\(errors)")
        let kept = errors.stderr.split(separator: "\n")
        XCTAssertFalse(kept.isEmpty)
        XCTAssertTrue(kept.allSatisfy { $0.contains(" level=error ") && $0.hasPrefix("ts=") }, errors.stderr)
        XCTAssertTrue(errors.stderr.contains("msg=\"/nonexistent.yml: no such file\""), errors.stderr)
        XCTAssertGreaterThan(all.stderr.split(separator: "\n").count, kept.count, "info and warn lines are dropped at error:\n\(all.stderr)")
    }

    func testAnUnknownLevelOrFormatIsAUsageError() throws {
        let level = try PinguardCLI.run(["serve", "--log.level", "loud"], timeout: 30)
        XCTAssertEqual(level.status, 64, "\(level)")
        XCTAssertTrue(level.stderr.contains("--log.level \"loud\" is not one of debug, info, warn, error"), level.stderr)
        let format = try PinguardCLI.run(["serve", "--log.format", "xml"], timeout: 30)
        XCTAssertEqual(format.status, 64, "\(format)")
        XCTAssertTrue(format.stderr.contains("--log.format \"xml\" is not one of plain, logfmt, json"), format.stderr)
    }
}
