import Foundation
import PinGuardTestSupport
import XCTest

/// `pinguard serve` without `--config`: the demo, on a folder of its own that it removes on exit.
final class ServeDemoTests: XCTestCase {
    /// The demo removes its folder on exit, and listens on 127.0.0.1:9477 when --listen is not given.
    func testDemoCleansUpAndListensOnLoopback() throws {
        let mode = try journalFreeMode()
        let serve = try ServeProcess(arguments: ["--listen", "127.0.0.1:\(LoopbackPorts.free(ipv6: false))"], mode: mode)
        let folder = try XCTUnwrap(ServeLog.demoFolder(in: serve.stderr), serve.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/pinguard.yml"), folder)
        XCTAssertEqual(try ServiceHTTP.get(port: serve.port, "/healthz").status, 200)
        XCTAssertEqual(serve.stop(), 0, serve.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "the demo folder \(folder) is left behind")

        guard LoopbackPorts.isFreeOnAllIPv4(9477) else {
            print("testDemoCleansUpAndListensOnLoopback: port 9477 is in use; not checking the demo's default listen address")
            return
        }
        let byDefault: ServeProcess
        do { byDefault = try ServeProcess(arguments: [], mode: mode) } catch let e as HarnessError where e.message.contains("in use") {
            print("testDemoCleansUpAndListensOnLoopback: port 9477 was taken meanwhile; not checking the default listen address")
            return
        }
        let line = byDefault.stderr.split(separator: "\n").first { $0.contains("serving /metrics on ") } ?? ""
        XCTAssertTrue(line.contains("serving /metrics on 127.0.0.1:9477,"), "the demo binds loopback only: \(line)")
        let defaultFolder = ServeLog.demoFolder(in: byDefault.stderr)
        XCTAssertEqual(byDefault.stop(), 0, byDefault.stderr)
        if let defaultFolder { XCTAssertFalse(FileManager.default.fileExists(atPath: defaultFolder)) }
    }

    /// How to start the demo so that its events, which it always writes, reach no journal: inside
    /// `with-journald.sh --no-journal` as root; directly on a host without a journal socket, where they reach
    /// none anyway. Skips on a host with a journal when not root.
    private func journalFreeMode() throws -> ServeProcess.JournalMode {
        guard let missing = ServeProcess.missingRequirement else { return .noJournal }
        if let binary = ServeProcess.missingDirectRequirement { throw XCTSkip(binary) }
        if FileManager.default.fileExists(atPath: "/run/systemd/journal/socket") {
            throw XCTSkip("the demo's events would reach this host's journal; with-journald.sh --no-journal keeps them out: \(missing)")
        }
        return .direct
    }
}
