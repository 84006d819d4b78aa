import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardCoreTestSupport
@testable import PinGuardService
import XCTest

/// A state file refused for good (not pinguard's, damaged, a newer schema) is never written, and nothing
/// says it is: no `state_recovered`, `pinguard_state_writable` stays 0 round after round, the start-up line
/// names the cause, and the file keeps every byte.
final class ChainMemoryRefusedFileTests: XCTestCase {
    func testAFileThatIsNotADatabaseStaysUnavailableAfterEveryRound() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let path = base.appendingPathComponent("state.db").path
        let junk = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try junk.write(to: URL(fileURLWithPath: path))
        let memory = try ChainMemory(location: .file(path), configured: ["api"])
        XCTAssertEqual(memory.startEvents.map(\.event), [.stateUnavailable])
        XCTAssertEqual(memory.unavailableCause, "state file \"\(path)\": not an SQLite database")
        XCTAssertEqual(StateLocation.file(path).summary(unavailable: memory.unavailableCause),
                       "served chains are remembered in memory only: state file \"\(path)\": not an SQLite database (state_unavailable)")
        let facts = ResultFixtures.facts(host: "api.example")
        let result = ResultFixtures.result(ResultFixtures.target("api", host: "api.example"), facts, [])
        for minute in 0..<3 {
            let now = facts.finishedAt.addingTimeInterval(Double(minute) * 60)
            _ = memory.observe(result, now: now)
            XCTAssertEqual(memory.commit(now: now), [], "round \(minute): nothing new to report, and no recovery")
            XCTAssertFalse(memory.facts.writable, "round \(minute)")
        }
        XCTAssertEqual(memory.history(target: "api").count, 1, "remembered in memory meanwhile")
        memory.close()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), junk)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base.path), ["state.db"])
    }

    func testASymbolicLinkToAnotherFileIsJudgedByWhatItNamesAndNeverWritten() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let target = base.appendingPathComponent("passwd").path
        let text = "root:x:0:0:root:/root:/bin/bash\n"
        try text.write(toFile: target, atomically: true, encoding: .utf8)
        let path = base.appendingPathComponent("state.db").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let memory = try ChainMemory(location: .file(path), configured: ["api"])
        XCTAssertEqual(memory.startEvents.map(\.event), [.stateUnavailable])
        let facts = ResultFixtures.facts(host: "api.example")
        _ = memory.observe(ResultFixtures.result(ResultFixtures.target("api", host: "api.example"), facts, []), now: facts.finishedAt)
        XCTAssertEqual(memory.commit(now: facts.finishedAt), [])
        XCTAssertFalse(memory.facts.writable)
        memory.close()
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), text)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: base.path)), ["passwd", "state.db"])
    }
}
