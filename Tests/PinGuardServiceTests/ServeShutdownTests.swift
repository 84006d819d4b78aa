import Foundation
import PinGuardTestSupport
import XCTest

/// What a real `pinguard serve` reports when SIGTERM ends it in the middle of a round.
final class ServeShutdownTests: XCTestCase {
    /// SIGTERM while two probes hang on a silent peer: exit 0 and no `probe_failed` for the probes it cut short. Their
    /// deadline is ten minutes: exiting within the two minutes waited at most is not waiting for them.
    func testSIGTERMMidRoundWritesNoProbeFailed() throws {
        let w = try ServiceWorld.direct()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-sigterm")
        let hangs = (1...2).map { ServiceWorld.Target(name: "hang\($0)", host: "hang\($0).pinguard.test", port: peer.port) }
        let config = try w.writeConfig(in: dir, targets: hangs, interval: "1h", timeout: "10m", journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--log-events"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 60) { peer.acceptedConnections >= 2 }, "both probes reached the silent peer")

        XCTAssertTrue(serve.signal(SIGTERM))
        XCTAssertEqual(serve.waitForExit(timeout: 120), 0, serve.stderr)
        let log = serve.stderr
        XCTAssertTrue(log.contains("[config_loaded]"), "events are echoed on stderr: \(log)")
        XCTAssertFalse(log.contains("[probe_failed]"), "a probe cut short by shutdown is no failure of the server:\n\(log)")
    }
}
