import Foundation
import PinGuardTestSupport
import XCTest

/// `GET /probe?target=`: one probe of a target the configuration's `probe_allow` admits, answered with its
/// series (the multi-target exporter pattern).
///
/// `/probe` takes a name and resolves it (there is no `connect` for it): what is checked after resolution
/// resolves the pool's name through a private /etc/hosts, bind-mounted in a user namespace of pinguard's own
/// (no root).
final class ProbeEndpointTests: XCTestCase {
    /// pinguard serving `/probe` with `allow` (`POOL_PORT` stands for the pool's port); with `resolvingPool`,
    /// inside a namespace whose /etc/hosts resolves the pool's name to every node.
    private func start(allow: String?, resolvingPool: Bool = false) throws -> (ServeProcess, NodePool, ServiceWorld) {
        let world = try resolvingPool ? ServiceWorld.resolving() : ServiceWorld.direct()
        let pool = try NodePool(pki: world.pki)
        let dir = try TemporaryDirectory.make("pinguard-probe-endpoint")
        try PolicyYAML.write(PolicyYAML.policySet(name: "pool-app", rules: [
            HostPolicySpec(pattern: NodePool.name, pins: [.spki(pool.freshPin, role: "primary", scope: "leaf"),
                                                          .spki(world.reservePin, role: "backup")]),
        ]), to: dir, as: "policies/pool-app.yml")
        let config = try world.writeConfig(in: dir, targets: [world.healthy], interval: "1h")
        if let allow {
            let text = try String(contentsOfFile: config, encoding: .utf8) + allow.replacingOccurrences(of: "POOL_PORT", with: "\(pool.port)")
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
        let serve = try ServeProcess(arguments: ["--config", config], mode: .direct, hostsFile: resolvingPool ? pool.hostsFile.path : nil)
        return (serve, pool, world)
    }

    private func get(_ serve: ServeProcess, _ path: String) throws -> (Int, String) {
        let r = try ServiceHTTP.request(port: serve.port, method: "GET", path: path)
        return (r.status, r.body)
    }

    func testProbeAnswersTheTargetsSeriesForEveryAddress() throws {
        let (serve, pool, _) = try start(allow: "probe_allow: {hosts: [\"**.pinguard.test\"], networks: [\"127.0.0.0/8\", \"::1\"], ports: [POOL_PORT]}\n",
                                         resolvingPool: true)
        defer { serve.stop(); pool.stop() }
        let (status, body) = try get(serve, "/probe?target=\(NodePool.name):\(pool.port)&policy_set=pool-app")
        XCTAssertEqual(status, 200, body)
        let m = try Exposition(body)
        let name = "\(NodePool.name):\(pool.port)"
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": name, "policy_set": "pool-app"]), 0, body)
        XCTAssertEqual(m.value("pinguard_address_policy_accept", ["address": pool.label("127.0.0.3")]), 0)
        XCTAssertEqual(m.value("pinguard_address_policy_accept", ["address": pool.label("127.0.0.2")]), 1)
        XCTAssertEqual(m.value("pinguard_target_addresses", ["target": name]), Double(pool.allAddresses.count))
        XCTAssertNil(m.value("pinguard_build_info"), "only the target's series")
        let metrics = try serve.metrics()
        XCTAssertTrue(metrics.samples(target: name).isEmpty, "nothing is recorded in /metrics")
    }

    /// An address the name resolves to outside `probe_allow.networks` (none listed: loopback stays guarded) is
    /// refused, naming it, before anything is dialled.
    func testProbeRefusesAnAddressOfTheNameOutsideTheAllowedNetworks() throws {
        let (serve, pool, _) = try start(allow: "probe_allow: {hosts: [\"**.pinguard.test\"], ports: [POOL_PORT]}\n", resolvingPool: true)
        defer { serve.stop(); pool.stop() }
        let (status, body) = try get(serve, "/probe?target=\(NodePool.name):\(pool.port)")
        XCTAssertEqual(status, 403, body)
        XCTAssertTrue(body.contains("address \(pool.label("127.0.0.2")) of \(NodePool.name) is not allowed by probe_allow.networks"), body)
    }

    /// A host outside `probe_allow.hosts`, no target, and a policy set that is not loaded are refused before
    /// any lookup.
    func testProbeRefusesWhatTheAllowlistDoesNotAdmit() throws {
        let (serve, pool, _) = try start(allow: "probe_allow: {hosts: [\"**.pinguard.test\"], ports: [POOL_PORT]}\n")
        defer { serve.stop(); pool.stop() }
        var (status, body) = try get(serve, "/probe?target=metadata.example:80")
        XCTAssertEqual(status, 403, body)
        XCTAssertTrue(body.contains("\"metadata.example\" is not allowed by probe_allow.hosts"), body)
        (status, body) = try get(serve, "/probe")
        XCTAssertEqual(status, 400, body)
        (status, body) = try get(serve, "/probe?target=\(NodePool.name):\(pool.port)&policy_set=nosuch")
        XCTAssertEqual(status, 400, body)
        XCTAssertTrue(body.contains("policy_set \"nosuch\" is not loaded"), body)
    }

    func testProbeIsOffWithoutAnAllowlist() throws {
        let (serve, pool, _) = try start(allow: nil)
        defer { serve.stop(); pool.stop() }
        let (status, body) = try get(serve, "/probe?target=\(NodePool.name)")
        XCTAssertEqual(status, 403, body)
        XCTAssertTrue(body.contains("no probe_allow"), body)
    }
}
