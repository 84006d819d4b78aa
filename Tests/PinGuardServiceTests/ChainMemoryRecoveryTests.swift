import Foundation
import PinGuardCore
import PinGuardCoreTestSupport
@testable import PinGuardService
import XCTest

/// A state file that cannot be opened at start (its folder is missing) is tried again after every round,
/// and taken over once it opens: the service recovers without a restart.
final class ChainMemoryRecoveryTests: XCTestCase {
    func testAStateFileThatCouldNotBeOpenedIsOpenedOnceItCanBe() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-recover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let path = base.appendingPathComponent("later/state.db").path
        let memory = try ChainMemory(location: .file(path), configured: ["api"])
        XCTAssertEqual(memory.startEvents.map(\.event), [.stateUnavailable])
        XCTAssertFalse(memory.facts.writable)
        let facts = ResultFixtures.facts(host: "api.example")
        let result = ResultFixtures.result(ResultFixtures.target("api", host: "api.example"), facts, [])
        _ = memory.observe(result, now: facts.finishedAt)
        XCTAssertEqual(memory.commit(now: facts.finishedAt), [], "still missing: nothing to report again")
        try FileManager.default.createDirectory(atPath: base.appendingPathComponent("later").path, withIntermediateDirectories: true)
        _ = memory.observe(result, now: facts.finishedAt.addingTimeInterval(60))
        XCTAssertEqual(memory.commit(now: facts.finishedAt.addingTimeInterval(60)).map(\.event), [.stateRecovered])
        XCTAssertTrue(memory.facts.writable)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        _ = memory.observe(result, now: facts.finishedAt.addingTimeInterval(120))
        XCTAssertEqual(memory.commit(now: facts.finishedAt.addingTimeInterval(120)), [], "the next round writes to the file")
        XCTAssertEqual(memory.history(target: "api").count, 1)
        memory.close()
    }
}
