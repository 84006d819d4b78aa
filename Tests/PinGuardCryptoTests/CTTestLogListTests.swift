import Foundation
import PinGuardCore
import PinGuardCTTestSupport
import PinGuardTestSupport
import XCTest

/// The test logs and the Chrome v3 log lists that name them: log IDs as the `openssl` command line
/// computes them, the schema's fields, operators grouped.
final class CTTestLogListTests: XCTestCase {
    func testLogIDIsTheSHA256OfTheKeyAsTheOpenSSLCommandComputesIt() throws {
        let log = try TestCTLog(name: "Solo")
        let dir = try TemporaryDirectory.make("pinguard-ct-key")
        let der = dir.appendingPathComponent("key.der")
        try XCTUnwrap(Data(base64Encoded: log.keyBase64)).write(to: der)
        let openssl = OpenSSLTool.path
        let pipeline = "\(openssl) pkey -pubin -inform DER -in \(CommandRunner.quote(der.path)) -outform DER"
            + " | \(openssl) dgst -sha256 -binary | base64"
        let id = try CommandRunner.run("/bin/bash", ["-o", "pipefail", "-c", pipeline])
        XCTAssertEqual(id.status, 0, "\(id)")
        XCTAssertEqual(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines), log.logIDBase64)
        XCTAssertEqual(log.logID.count, 32)
    }

    func testLogListNamesLogsByOperatorWithStates() throws {
        let logs = try TestCTLog.make(3)
        let retiredAt = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        let json = TestLogListJSON.make(version: "7.1", timestamp: Date(timeIntervalSince1970: 1_795_132_800), entries: [
            TestLogListEntry(log: logs[0], operatorName: "Alpha"),
            TestLogListEntry(log: logs[1], operatorName: "Beta", state: .retired, stateSince: retiredAt),
            TestLogListEntry(log: logs[2], operatorName: "Alpha", temporalInterval: (Date(timeIntervalSince1970: 1_767_225_600),
                                                                                     Date(timeIntervalSince1970: 1_782_864_000))),
        ])
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(document["version"] as? String, "7.1")
        XCTAssertEqual(document["log_list_timestamp"] as? String, "2026-11-20T00:00:00Z")
        let operators = try XCTUnwrap(document["operators"] as? [[String: Any]])
        XCTAssertEqual(operators.map { $0["name"] as? String }, ["Alpha", "Beta"])
        let alpha = try XCTUnwrap(operators[0]["logs"] as? [[String: Any]])
        XCTAssertEqual(alpha.map { $0["log_id"] as? String }, [logs[0].logIDBase64, logs[2].logIDBase64])
        XCTAssertEqual(alpha[0]["key"] as? String, logs[0].keyBase64)
        XCTAssertEqual(alpha[0]["mmd"] as? Int, 86_400)
        XCTAssertEqual((alpha[0]["state"] as? [String: [String: Any]])?["usable"]?["timestamp"] as? String, "2024-01-01T00:00:00Z")
        XCTAssertEqual(alpha[1]["temporal_interval"] as? [String: String],
                       ["start_inclusive": "2026-01-01T00:00:00Z", "end_exclusive": "2026-07-01T00:00:00Z"])
        let beta = try XCTUnwrap(operators[1]["logs"] as? [[String: Any]])
        XCTAssertEqual((beta[0]["state"] as? [String: [String: Any]])?["retired"]?["timestamp"] as? String, "2026-01-01T00:00:00Z")
        XCTAssertNotNil(operators[1]["tiled_logs"] as? [Any])
    }
}
