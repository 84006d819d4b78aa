import Foundation
import PinGuardTestSupport
import XCTest

/// What a reload of a real `pinguard serve` does while probes hang on a silent peer: it answers at once
/// instead of queueing behind them, and a new `concurrency` sizes the probe pool of the very next round.
final class ServeReloadEffectsTests: XCTestCase {
    /// With one probe at a time and every probe hanging for 3 s, `POST /-/reload` still answers at once:
    /// the reload does not queue behind the probes.
    func testReloadAnswersPromptlyWhileProbesHang() throws {
        let w = try ServiceWorld.direct()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-reload-busy")
        let targets = (1...3).map { ServiceWorld.Target(name: "hang\($0)", host: "hang\($0).pinguard.test", port: peer.port) }
        let config = try w.writeConfig(in: dir, targets: targets, interval: "30s", timeout: "8s", concurrency: 1, journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        _ = Polling.holds(within: 10) { peer.acceptedConnections > 0 }
        XCTAssertEqual(peer.acceptedConnections, 1, "a probe hangs on the silent peer")

        let start = Date()
        let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload", timeout: 8)
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(reply.status, 200, "\(reply)")
        XCTAssertTrue(reply.body.contains("3 targets"), reply.body)
        XCTAssertLessThan(took, 4, "the reload waited \(took) s for a probe to finish (it hangs for 8 s)")
        XCTAssertEqual(peer.acceptedConnections, 1, "still the first probe: the reload did not wait for it")
    }

    /// A reload that raises `concurrency` resizes the probe pool: the catch-up after it runs its probes side
    /// by side.
    func testReloadResizesTheProbePool() throws {
        let w = try ServiceWorld.direct()
        let first = try HostilePeer(.silent)
        defer { first.stop() }
        let second = try HostilePeer(.silent)
        defer { second.stop() }
        let third = try HostilePeer(.silent)
        defer { third.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-reload-pool")
        let targets = [ServiceWorld.Target(name: "a", host: "a.pinguard.test", port: first.port),
                       ServiceWorld.Target(name: "b", host: "b.pinguard.test", port: second.port),
                       ServiceWorld.Target(name: "c", host: "c.pinguard.test", port: third.port)]
        let config = try w.writeConfig(in: dir, targets: targets, interval: "1h", timeout: "1s", concurrency: 1, journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 10) { first.acceptedConnections == 1 }, "the first round reached the first peer")

        try w.writeConfig(in: dir, targets: targets, interval: "1h", timeout: "1s", concurrency: 2, journal: false)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        // The reload stops the round in progress from launching more probes; the catch-up that follows
        // probes the targets the round never reached, b and c, side by side on the larger pool.
        var secondAt: Date?
        var thirdAt: Date?
        let until = Date().addingTimeInterval(8)
        while (secondAt == nil || thirdAt == nil) && Date() < until {
            if secondAt == nil && second.acceptedConnections > 0 { secondAt = Date() }
            if thirdAt == nil && third.acceptedConnections > 0 { thirdAt = Date() }
            usleep(5_000)
        }
        XCTAssertNotNil(secondAt, "the catch-up probed b: \(serve.stderr)")
        XCTAssertNotNil(thirdAt, "the catch-up probed c: \(serve.stderr)")
        let gap = abs((secondAt ?? .distantFuture).timeIntervalSince(thirdAt ?? .distantPast))
        // Probes start 250 ms apart at most; with one pool thread the second would wait 1 s.
        XCTAssertLessThan(gap, 0.7, "the second probe waited \(gap) s for a free pool thread")
        XCTAssertEqual(first.acceptedConnections, 1, "a, probed in this round already, is not probed again")
    }
}
