import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardServiceTestSupport
import XCTest

/// A FIFO matched by `files:` is judged as a failed file at once: it never holds the round, so the
/// service becomes ready and its other targets are probed.
final class FileTargetsSpecialFileTests: XCTestCase {
    func testAFIFOUnderFilesFailsThatFileAndTheRoundFinishes() async throws {
        let pin = InProcessService.pin(byte: 1)
        let config = InProcessService.config(hosts: ["a.test"]) + "files:\n  - {path: \"staged/*\", host: a.test}\n"
        let s = try InProcessService(config: config, policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [pin])])
        s.serve("a.test", key: pin)
        let staged = s.directory.appendingPathComponent("staged")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(staged.appendingPathComponent("next.pem").path, 0o600), 0)
        let scheduler = Task { await RoundScheduler(runtime: s.runtime).run() }
        defer { scheduler.cancel() }
        try await s.clock.waitForSleepers()
        XCTAssertTrue(s.runtime.isReady, "the first round finished")
        let snapshot = s.runtime.snapshot()
        let file = try XCTUnwrap(snapshot.files.first { $0.target.name.hasSuffix("next.pem") }, "\(snapshot.files.map(\.target.name))")
        let error = file.nodes.first?.facts.error ?? "no error"
        XCTAssertTrue(error.contains("not a regular file (a FIFO)"), error)
        XCTAssertNotNil(snapshot.results.first { $0.target.name == "a.test" }, "the probed target has its result")
    }
}
