import Foundation
import PinGuardTestSupport
import XCTest

/// Every node behind a name (docs/reference.md, Every address of a name): real nginx nodes on 127.0.0.2,
/// 127.0.0.3 and ::1 serving one name, probed by `pinguard probe` and `pinguard serve`.
///
/// Judging several addresses (the table, a node that is down, `--max-addresses`, `--resolve first`) is
/// checked on a `--connect` list: it takes the same path as a name's addresses (deduplicated, IPv4 first,
/// then cut or dialled in order) and needs no root. What only a name's own resolution shows — every address
/// it resolves to, its address set changing, its events in the journal — resolves the name through a
/// private /etc/hosts: in a user namespace of its own for `probe` (no root), inside the private journald of
/// `scripts/with-journald.sh --hosts` (root) where events are read back.
final class AddressNodesTests: XCTestCase {
    private static let started: Result<NodePool, HarnessError> = {
        do { return .success(try NodePool(pki: TestPKI.shared())) } catch let e as HarnessError { return .failure(e) } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    private var world: ServiceWorld!
    private var pool: NodePool!
    private var dir: URL!
    private var policy: String!

    override func setUpWithError() throws {
        world = try ServiceWorld.direct()
        pool = try Self.started.get()
        try pool.resolve(to: pool.allAddresses)
        dir = try TemporaryDirectory.make("pinguard-nodes")
        policy = try PolicyYAML.write(PolicyYAML.policySet(name: "pool-app", rules: [
            HostPolicySpec(pattern: NodePool.name, pins: [.spki(pool.freshPin, role: "primary", scope: "leaf"),
                                                          .spki(world.reservePin, role: "backup")]),
        ]), to: dir, as: "policies/pool-app.yml")
    }

    /// `pinguard probe` of the pool's name; with `hosts`, run with the pool's hosts file as /etc/hosts.
    private func probe(_ extra: [String] = [], hosts: Bool = false) throws -> CommandResult {
        let binary = try XCTUnwrap(PinguardCLI.binary)
        let pool: NodePool = self.pool, policy: String = self.policy, world: ServiceWorld = self.world
        let args = ["probe", "\(NodePool.name):\(pool.port)", "--policy", policy, "--ca-file", world.pki.caBundle,
                    "--timeout", "3s"] + extra
        if !hosts { return try CommandRunner.run(binary, args, timeout: 30) }
        _ = try ServiceWorld.resolving()
        let (executable, wrapped) = try ServeProcess.withPrivateNames([binary] + args, hostsFile: pool.hostsFile.path)
        return try CommandRunner.run(executable, wrapped, timeout: 30)
    }

    /// `--connect` for each of `addresses`, last first: what pinguard reports in the stable order is then
    /// not merely the order given.
    private func connect(_ addresses: [String]) -> [String] {
        addresses.reversed().flatMap { ["--connect", $0] }
    }

    private func json(_ r: CommandResult) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
    }

    /// Each address object by its `address`.
    private func nodes(_ object: [String: Any]) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for n in object["addresses"] as? [[String: Any]] ?? [] { out[n["address"] as? String ?? ""] = n }
        return out
    }

    private func verdict(_ node: [String: Any]?) -> String? {
        ((node?["evaluations"] as? [[String: Any]])?.first)?["verdict"] as? String
    }

    func testProbeJudgesEveryAddressAndNamesTheStaleNode() throws {
        let r = try probe(["--json"], hosts: true)
        XCTAssertEqual(r.status, 1, "a node serving a rejected chain fails the probe: \(r)")
        let o = try json(r)
        let byAddress = nodes(o)
        XCTAssertEqual(Set(byAddress.keys), Set(pool.allAddresses.map(pool.label)), r.stdout)
        XCTAssertEqual(verdict(byAddress[pool.label("127.0.0.2")]), "accept")
        XCTAssertEqual(verdict(byAddress[pool.label("127.0.0.3")]), "reject")
        if pool.hasIPv6 { XCTAssertEqual(verdict(byAddress[pool.label("::1")]), "accept", "IPv6 node judged on its own") }
        let worst = try XCTUnwrap((o["evaluations"] as? [[String: Any]])?.first)
        XCTAssertEqual(worst["verdict"] as? String, "reject", "the worst case is the stale node's")
        XCTAssertEqual(worst["reason"] as? String, "pin_mismatch")
        XCTAssertEqual(o["distinct_chains"] as? Int, 2)
        XCTAssertEqual((o["resolution"] as? [String: Any])?["addresses"] as? [String], pool.allAddresses.map(pool.label),
                       "every address, IPv4 first")
        XCTAssertEqual(o["address"] as? String, pool.label("127.0.0.3"), "the top-level probe is the worst node's")
    }

    func testProbeTableShowsEveryAddressThenTheWorstCase() throws {
        let r = try probe(connect(pool.allAddresses))
        XCTAssertEqual(r.status, 1, "\(r)")
        for a in pool.allAddresses { XCTAssertTrue(r.stdout.contains("address  \(pool.label(a))"), r.stdout) }
        XCTAssertTrue(r.stdout.contains("2 DIFFERENT chains served"), r.stdout)
        XCTAssertTrue(r.stdout.contains("worst case over \(pool.allAddresses.count) addresses"), r.stdout)
    }

    func testANodeThatIsDownIsReportedWhileTheOthersAreJudged() throws {
        let r = try probe(["--json"] + connect(["127.0.0.2", NodePool.downAddress]))
        XCTAssertEqual(r.status, 1, "an address without a chain fails the probe: \(r)")
        let byAddress = nodes(try json(r))
        let down = try XCTUnwrap(byAddress[pool.label(NodePool.downAddress)], r.stdout)
        XCTAssertEqual((down["probe"] as? [String: Any])?["success"] as? Bool, false)
        XCTAssertTrue(((down["probe"] as? [String: Any])?["error"] as? String ?? "").contains("Connection refused"), r.stdout)
        XCTAssertEqual(verdict(byAddress[pool.label("127.0.0.2")]), "accept")
        let worst = try XCTUnwrap((try json(r)["evaluations"] as? [[String: Any]])?.first)
        XCTAssertEqual(worst["verdict"] as? String, "accept", "a node that cannot be reached is not a reject")
    }

    func testMaxAddressesProbesTheFirstInStableOrderAndCountsTheRest() throws {
        let r = try probe(["--json", "--max-addresses", "2"] + connect(pool.allAddresses))
        let o = try json(r)
        XCTAssertEqual(Set(nodes(o).keys), [pool.label("127.0.0.2"), pool.label("127.0.0.3")], r.stdout)
        XCTAssertEqual((o["resolution"] as? [String: Any])?["skipped"] as? Int, pool.allAddresses.count - 2)
    }

    func testResolveFirstProbesOnlyTheFirstAddressThatAnswers() throws {
        let r = try probe(["--json", "--resolve", "first", "--connect", NodePool.downAddress, "--connect", "127.0.0.3"])
        let byAddress = nodes(try json(r))
        XCTAssertEqual(Array(byAddress.keys), [pool.label("127.0.0.3")], "the down address is skipped as a client would: \(r)")
    }

    func testConnectListProbesEachListedAddress() throws {
        let r = try probe(["--json", "--connect", "127.0.0.3", "--connect", "127.0.0.2"])
        let byAddress = nodes(try json(r))
        XCTAssertEqual(Set(byAddress.keys), [pool.label("127.0.0.2"), pool.label("127.0.0.3")], r.stdout)
        XCTAssertEqual(verdict(byAddress[pool.label("127.0.0.3")]), "reject")
    }

    /// The service with one target resolving to the pool, inside a private journald.
    private func serve(interval: String = "1h") throws -> ServeProcess {
        _ = try ServiceWorld.privileged(for: "the pool's name resolved through a private /etc/hosts, events read from a private journald")
        let target = ServiceWorld.Target(name: "pool", host: NodePool.name, port: pool.port, policySets: ["pool-app"], connect: nil)
        let config = try world.writeConfig(in: dir, targets: [target], interval: interval, timeout: "2s", journal: true)
        return try ServeProcess(arguments: ["--config", config, "--log-events"], hostsFile: pool.hostsFile.path)
    }

    func testServeNamesTheStaleNodeInMetricsAndEvents() throws {
        let serve = try serve()
        defer { serve.stop() }
        let m = try serve.waitForMetrics { $0.value("pinguard_target_addresses", ["target": "pool"]) != nil }
        XCTAssertEqual(m.value("pinguard_target_addresses", ["target": "pool"]), Double(pool.allAddresses.count), serve.stderr)
        XCTAssertEqual(m.value("pinguard_target_distinct_chains", ["target": "pool"]), 2)
        XCTAssertEqual(m.value("pinguard_policy_accept", ["target": "pool", "policy_set": "pool-app"]), 0, "worst case: reject")
        for a in pool.allAddresses {
            XCTAssertEqual(m.value("pinguard_probe_success", ["target": "pool", "address": pool.label(a)]), 1, a)
            XCTAssertEqual(m.value("pinguard_address_policy_accept", ["target": "pool", "address": pool.label(a)]),
                           a == "127.0.0.3" ? 0 : 1, a)
        }
        let entries = try serve.waitForJournal { $0.contains { $0.event == "chain_divergence" } }
        let divergence = try XCTUnwrap(entries.first { $0.event == "chain_divergence" })
        XCTAssertEqual(divergence["PINGUARD_OTHER_ADDRESS"], pool.label("127.0.0.3"), "\(divergence)")
        XCTAssertEqual(divergence["PINGUARD_OTHER_LEAF_SPKI_SHA256"], pool.stalePin)
        XCTAssertEqual(divergence["PINGUARD_LEAF_SPKI_SHA256"], pool.freshPin)
        let mismatch = entries.filter { $0.event == "pin_mismatch" }
        XCTAssertEqual(mismatch.map { $0["PINGUARD_ADDRESS"] }, [pool.label("127.0.0.3")], "\(entries)")
        XCTAssertTrue(mismatch.first?["MESSAGE"]?.hasPrefix("pool (\(pool.label("127.0.0.3"))): ") ?? false, "\(mismatch)")
        XCTAssertEqual(Set(entries.filter { $0.event == "pin_matched" }.compactMap { $0["PINGUARD_ADDRESS"] }),
                       Set(pool.allAddresses.filter { $0 != "127.0.0.3" }.map(pool.label)))
    }

    func testServeReportsAddressSetChangesAndAFailedResolution() throws {
        try pool.resolve(to: ["127.0.0.2"])
        let serve = try serve(interval: "2s")
        defer { serve.stop() }
        // One address: no `pinguard_target_addresses` (its one `pinguard_probe_success` series says it).
        let one = try serve.waitForMetrics { $0.value("pinguard_probe_success", ["target": "pool", "address": pool.label("127.0.0.2")]) == 1 }
        XCTAssertNil(one.value("pinguard_target_addresses", ["target": "pool"]), serve.stderr)

        try pool.resolve(to: ["127.0.0.2", "127.0.0.3"])
        var m = try serve.waitForMetrics { $0.value("pinguard_target_addresses", ["target": "pool"]) == 2 }
        XCTAssertEqual(m.value("pinguard_address_policy_accept", ["address": pool.label("127.0.0.3")]), 0, serve.stderr)
        var entries = try serve.waitForJournal { $0.contains { $0.event == "address_set_changed" } }
        let changed = try XCTUnwrap(entries.first { $0.event == "address_set_changed" })
        XCTAssertEqual(changed["PINGUARD_ADDRESSES"], "\(pool.label("127.0.0.2")),\(pool.label("127.0.0.3"))")
        XCTAssertEqual(changed["PINGUARD_PREVIOUS_ADDRESSES"], pool.label("127.0.0.2"))

        try pool.resolve(to: [])
        m = try serve.waitForMetrics { $0.value("pinguard_target_addresses", ["target": "pool"]) == 0 }
        XCTAssertEqual(m.value("pinguard_probe_success", ["target": "pool", "address": ""]), 0, serve.stderr)
        XCTAssertNil(m.value("pinguard_probe_success", ["address": pool.label("127.0.0.3")]), "series of gone addresses disappear")
        entries = try serve.waitForJournal { $0.contains { $0.event == "resolution_failed" } }
        let failed = try XCTUnwrap(entries.first { $0.event == "resolution_failed" })
        XCTAssertTrue(failed["PINGUARD_ERROR"]?.contains(NodePool.name) ?? false, "\(failed)")
    }
}
