import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardTestSupport
import XCTest

/// The CT log list reader: the bundled published lists read whole, both schemas' shapes, and a list that does
/// not read is refused naming its first bad entry.
final class CTLogListReaderTests: XCTestCase {
    static let key = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEB/we6GOO/xwxivy4HhkrYFAAPo6e2nc346Wo2o2U+GvoPWSPJz91s/xrEvA3Bk9kWHUUXVZS5morFEzsgdHqPg=="
    static let logID = "DleUvPOuqT4zGyyZB7P3kN+bwj1xMiXdIaklrGHFTiE="
    static let otherID = "1219ENGn9XfCx+lf1wC/+YLJM1pl4dCzAXMXwMjFaXc="

    static func bundled(_ name: CTLogListName) throws -> CTLogList {
        let file = Repository.root.appendingPathComponent("Sources/PinGuardConfig/Resources/ct_log_list_\(name.rawValue).json").path
        return try CTLogListReader.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), name: name, origin: "bundled")
    }

    /// One log entry; `fields` replace or add to the defaults, a nil value removes a field.
    static func entry(_ fields: [String: String?] = [:]) -> String {
        var f: [String: String?] = ["description": "\"Test 'Log'\"", "log_id": "\"\(logID)\"", "key": "\"\(key)\"",
                                    "state": #"{"usable": {"timestamp": "2025-01-01T00:00:00Z"}}"#]
        for (k, v) in fields { f[k] = v }
        return "{" + f.compactMap { k, v in v.map { "\"\(k)\": \($0)" } }.sorted().joined(separator: ", ") + "}"
    }

    /// A Chrome-shaped list of one operator holding `logs` (and `tiled`).
    static func list(logs: [String], tiled: [String] = [], top: String = #""version": "1.2", "log_list_timestamp": "2026-08-20T13:34:57Z""#) -> [UInt8] {
        Array(#"{\#(top), "operators": [{"name": "Op", "email": [], "logs": [\#(logs.joined(separator: ","))], "tiled_logs": [\#(tiled.joined(separator: ","))]}]}"#.utf8)
    }

    func refusal(_ bytes: [UInt8], name: CTLogListName = .chrome) -> String {
        do { _ = try CTLogListReader.parse(bytes, name: name, origin: "list.json"); return "read" } catch { return error.description }
    }

    func testBundledChromeListReads() throws {
        let list = try Self.bundled(.chrome)
        XCTAssertEqual(list.version, "89.25")
        XCTAssertEqual(RFC3339.format(list.timestamp), "2026-08-20T13:34:57Z")
        XCTAssertEqual(list.logs.count, 78, "117 entries, 39 of them without a state")
        XCTAssertEqual(list.logs.filter(\.tiled).count, 43)
        XCTAssertEqual(Set(list.logs.map(\.operatorName)).count, 9)
        XCTAssertEqual(list.logs.filter { $0.state == .usable }.count, 37)
        let argon = try XCTUnwrap(list.log(id: Self.logID))
        XCTAssertEqual(argon.operatorName, "Google")
        XCTAssertEqual(argon.acceptsExpiryFrom.map(RFC3339.format), "2026-01-01T00:00:00Z")
    }

    func testBundledAppleListReadsAndIsDatedByItsLatestStateChange() throws {
        let list = try Self.bundled(.apple)
        XCTAssertEqual(list.version, "511")
        XCTAssertEqual(RFC3339.format(list.timestamp), "2026-03-30T19:10:05Z")
        XCTAssertEqual(list.logs.count, 166)
        XCTAssertEqual(list.logs.filter(\.tiled).count, 31)
        XCTAssertEqual(Set(list.logs.map(\.operatorName)).count, 16)
        XCTAssertEqual(list.logs.filter { $0.state == .usable }.count, 51)
    }

    func testChromeShapedFixture() throws {
        let tiled = Self.entry(["log_id": "\"\(Self.otherID)\"", "submission_url": "\"https://x.example/\"",
                                "temporal_interval": #"{"start_inclusive": "2026-01-01T00:00:00Z", "end_exclusive": "2026-07-01T00:00:00Z"}"#])
        let list = try CTLogListReader.parse(Self.list(logs: [Self.entry()], tiled: [tiled]), name: .chrome, origin: "list.json")
        XCTAssertEqual(list.origin, "list.json")
        XCTAssertEqual(list.logs.map(\.tiled), [false, true])
        XCTAssertEqual(list.logs[0], CTLog(logID: Self.logID, key: Self.key, description: "Test 'Log'", operatorName: "Op", state: .usable,
                                           stateSince: RFC3339.parse("2025-01-01T00:00:00Z")))
        XCTAssertEqual(list.logs[1].acceptsExpiryBefore.map(RFC3339.format), "2026-07-01T00:00:00Z")
    }

    func testAppleShapedFixture() throws {
        let entry = Self.entry(["state": #"{"readonly": {"timestamp": "2026-02-01T00:00:00Z", "version": "7", "final_tree_head": {"tree_size": 1, "sha256_root_hash": "x"}}}"#,
                                "tls_only": "true", "mmd": "86400"])
        let top = #""$schema": "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json", "assetVersion": 32, "assetVersionV2": 1013, "version": "7""#
        let list = try CTLogListReader.parse(Self.list(logs: [], tiled: [entry], top: top), name: .apple, origin: "apple.json")
        XCTAssertEqual(list.logs.map(\.state), [.readonly])
        XCTAssertEqual(RFC3339.format(list.timestamp), "2026-02-01T00:00:00Z")
    }

    func testEntryWithoutStateIsSkipped() throws {
        let list = try CTLogListReader.parse(Self.list(logs: [Self.entry(["state": nil])]), name: .chrome, origin: "list.json")
        XCTAssertTrue(list.logs.isEmpty)
    }

    func testMissingKeyNamesTheEntry() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["log_id": "\"\(Self.otherID)\""]), Self.entry(["key": nil])])),
                       #"list.json: operators[0].logs[1]: no "key""#)
    }

    func testShortLogIDIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [], tiled: [Self.entry(["log_id": "\"AAAA\""])])),
                       #"list.json: operators[0].tiled_logs[0]: "log_id" is 3 bytes, not 32"#)
    }

    func testKeyThatIsNotBase64IsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["key": "\"not base64!\""])])),
                       #"list.json: operators[0].logs[0]: "key" is not base64: "not base64!""#)
    }

    func testKeyThatIsNotDERIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["key": "\"\(Self.logID)\""])])),
                       #"list.json: operators[0].logs[0]: "key" is not a DER public key"#)
    }

    func testUnknownStateIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["state": #"{"frozen": {"timestamp": "2025-01-01T00:00:00Z"}}"#])])),
                       #"list.json: operators[0].logs[0]: unknown state "frozen""#)
    }

    func testTwoStatesAreRefused() {
        let state = #"{"usable": {"timestamp": "2025-01-01T00:00:00Z"}, "retired": {"timestamp": "2025-02-01T00:00:00Z"}}"#
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["state": state])])), #"list.json: operators[0].logs[0]: "state" has 2 states, not one"#)
    }

    func testStateWithoutTimestampIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["state": #"{"retired": {}}"#])])),
                       #"list.json: operators[0].logs[0]: no "state.retired.timestamp""#)
    }

    func testMalformedIntervalIsRefused() {
        let interval = #"{"start_inclusive": "2026-01-01", "end_exclusive": "2026-07-01T00:00:00Z"}"#
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry(["temporal_interval": interval])])),
                       #"list.json: operators[0].logs[0]: "temporal_interval.start_inclusive" is not an RFC 3339 time: "2026-01-01""#)
    }

    func testLogIDListedTwiceIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry()], tiled: [Self.entry()])),
                       #"list.json: operators[0].tiled_logs[0]: "log_id" is listed already, at operators[0].logs[0]"#)
    }

    func testMissingTimestampIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [Self.entry()], top: #""version": "1""#)), #"list.json: no "log_list_timestamp""#)
    }

    func testMalformedTimestampIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [], top: #""version": "1", "log_list_timestamp": "yesterday""#)),
                       #"list.json: "log_list_timestamp" is not an RFC 3339 time: "yesterday""#)
    }

    func testAppleListWithoutStatesCannotBeDated() {
        XCTAssertEqual(refusal(Self.list(logs: [], top: #""version": "1""#), name: .apple),
                       #"list.json: no "log_list_timestamp", and no log state to date the list by"#)
    }

    func testMissingVersionIsRefused() {
        XCTAssertEqual(refusal(Self.list(logs: [], top: #""log_list_timestamp": "2026-08-20T13:34:57Z""#)), #"list.json: no "version""#)
    }

    func testOperatorWithoutNameIsRefused() {
        XCTAssertEqual(refusal(Array(#"{"version": "1", "log_list_timestamp": "2026-08-20T13:34:57Z", "operators": [{"logs": []}]}"#.utf8)),
                       #"list.json: operators[0]: no "name""#)
    }

    func testNotJSONIsRefused() {
        XCTAssertEqual(refusal(Array("{".utf8)), "list.json: not JSON")
        XCTAssertEqual(refusal(Array("[]".utf8)), "list.json: not a JSON object")
    }

    func testOversizedListIsRefused() {
        XCTAssertEqual(refusal([UInt8](repeating: 0x20, count: CTLogListReader.maxBytes + 1)), "list.json: larger than 4194304 bytes")
    }
}
