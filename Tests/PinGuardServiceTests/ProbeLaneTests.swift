import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardTestSupport
import XCTest

/// `GET /probe` work runs on threads of its own: scheduled probes never queue behind it, even when every
/// on-demand probe hangs until its deadline.
final class ProbeLaneTests: XCTestCase {
    func testScheduledProbesDoNotWaitBehindOnDemandProbes() async throws {
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let config = try ServiceConfigParser.parse("concurrency: 1\ntargets: []\n", file: "c.yml")
        let executor = try ThreadPoolProbeExecutor(config: config)
        let target = Target(host: "127.0.0.1", port: silent.port, environment: "prod", policySets: nil, resolve: .all, maxAddresses: 1)
        let allow = ProbeAllowlist(hosts: [try HostPattern.parse("127.0.0.1")], networks: [try XCTUnwrap(IPNetwork("127.0.0.0/8"))],
                                   ports: [silent.port...silent.port])
        let finished = NIOLockedValueBox<[String]>([])
        // The on-demand probes hang for ten minutes: only the peer dropping them below ends them, so the order
        // checked does not depend on how fast anything runs.
        let onDemand = (0..<8).map { i in
            Task {
                _ = await executor.probe(target, timeout: 600, allow: allow)
                finished.withLockedValue { $0.append("on-demand \(i)") }
            }
        }
        XCTAssertTrue(Polling.holds(within: 60) { silent.acceptedConnections >= 8 }, "every on-demand probe reached the silent peer")
        let scheduled = await executor.probe(target, timeout: 0.5)
        finished.withLockedValue { $0.append("scheduled") }
        XCTAssertNotNil(scheduled)
        XCTAssertEqual(finished.withLockedValue { $0 }, ["scheduled"], "the scheduled probe ended while all on-demand ones still hung")
        silent.dropConnections()
        for t in onDemand { await t.value }
        await executor.shutdown()
    }
}
