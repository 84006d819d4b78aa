import Foundation
import PinGuardTestSupport
import XCTest

/// What a reload of a real `pinguard serve` does while probes hang on a silent peer: it answers while the probe
/// still hangs instead of queueing behind it, and a new `concurrency` sizes the probe pool of the very next round.
/// The probes' deadline is ten minutes: what waited for one could not finish within the minutes the test waits at
/// most, which only stop a hang.
final class ServeReloadEffectsTests: XCTestCase {
    /// With one probe at a time and every probe hanging for ten minutes, `POST /-/reload` still answers while the
    /// first one hangs: the reload does not queue behind the probes.
    func testReloadAnswersWhileProbesHang() throws {
        let w = try ServiceWorld.direct()
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let dir = try TemporaryDirectory.make("pinguard-svc-reload-busy")
        let targets = (1...3).map { ServiceWorld.Target(name: "hang\($0)", host: "hang\($0).pinguard.test", port: peer.port) }
        let config = try w.writeConfig(in: dir, targets: targets, interval: "1h", timeout: "10m", concurrency: 1, journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        _ = Polling.holds(within: 60) { peer.acceptedConnections > 0 }
        XCTAssertEqual(peer.acceptedConnections, 1, "a probe hangs on the silent peer")

        let reply = try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload", timeout: 120)
        XCTAssertEqual(reply.status, 200, "\(reply)")
        XCTAssertTrue(reply.body.contains("3 targets"), reply.body)
        XCTAssertEqual(peer.acceptedConnections, 1, "still the first probe, ten minutes from its deadline: the reload did not wait for it")
    }

    /// A reload that raises `concurrency` resizes the probe pool: the catch-up after it runs its probes side
    /// by side. Its probes hang ten minutes: with one pool thread the second would not start before the first's
    /// deadline, so both starting at all is both running at once.
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
        let config = try w.writeConfig(in: dir, targets: targets, interval: "1h", timeout: "10m", concurrency: 1, journal: false)
        let serve = try ServeProcess(arguments: ["--config", config, "--web.enable-lifecycle"], mode: .direct)
        defer { serve.stop() }
        XCTAssertTrue(Polling.holds(within: 60) { first.acceptedConnections == 1 }, "the first round reached the first peer")

        try w.writeConfig(in: dir, targets: targets, interval: "1h", timeout: "10m", concurrency: 2, journal: false)
        XCTAssertEqual(try ServiceHTTP.request(port: serve.port, method: "POST", path: "/-/reload").status, 200)
        // The reload stops the round in progress from launching more probes; once a's probe ends (its peer drops
        // the connection), the catch-up probes the targets the round never reached, b and c, on the larger pool.
        first.dropConnections()
        XCTAssertTrue(Polling.holds(within: 60) { second.acceptedConnections == 1 && third.acceptedConnections == 1 },
                      "the catch-up probed b and c side by side (\(second.acceptedConnections), \(third.acceptedConnections)): \(serve.stderr)")
        XCTAssertEqual(first.acceptedConnections, 1, "a, probed in this round already, is not probed again")
    }
}
