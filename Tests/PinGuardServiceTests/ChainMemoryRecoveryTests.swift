import Foundation
import PinGuardCore
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
        let leaf = ChainCertificate(depth: 0, subject: "CN=api", issuer: "CN=ca", notBefore: Date(timeIntervalSince1970: 1_799_000_000),
                                    notAfter: Date(timeIntervalSince1970: 1_802_000_000),
                                    spkiSHA256: Data(repeating: 1, count: 32).base64EncodedString(),
                                    certSHA256: Data(repeating: 2, count: 32).base64EncodedString())
        let facts = ProbeFacts(host: "api.example", port: 443, address: "192.0.2.1:443", servedChain: [leaf], verifiedChain: [leaf],
                               trusted: true, finishedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let result = TargetResult.evaluate(facts, target: Target(host: "api.example", name: "api"), sets: [], now: facts.finishedAt)
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
