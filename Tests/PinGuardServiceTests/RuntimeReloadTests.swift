import Foundation
import NIOConcurrencyHelpers
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardServiceTestSupport
import PinGuardTestSupport
import XCTest

/// Reloads in-process: what a good and a bad file do, how kept results are judged, and that reloads run
/// one at a time.
final class RuntimeReloadTests: XCTestCase {
    private let served = InProcessService.pin(byte: 1)
    private let backup = InProcessService.pin(byte: 2)
    private let other = InProcessService.pin(byte: 3)

    private func service(hosts: [String] = ["a.test", "b.test"],
                         loader: (@Sendable (String) throws(ConfigError) -> LoadedConfiguration)? = nil) throws -> InProcessService {
        let s = try InProcessService(config: InProcessService.config(hosts: hosts),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [served, backup])],
                                     loader: loader)
        for h in hosts { s.serve(h, key: served) }
        return s
    }

    private func verdicts(_ s: InProcessService) -> [String: Verdict] {
        var v: [String: Verdict] = [:]
        for r in s.runtime.snapshot().results { v[r.target.name] = r.evaluations.first?.verdict }
        return v
    }

    func testKeptResultsAreJudgedByTheNewPoliciesWithoutAProbe() async throws {
        let s = try service()
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(verdicts(s), ["a.test": .accept, "b.test": .accept])
        let probes = s.executor.probes.count

        try s.rewrite("policies/app.yml", InProcessService.policy(name: "app", pattern: "**.test", pins: [other]))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertEqual(s.executor.probes.count, probes, "no probe ran")
        XCTAssertEqual(verdicts(s), ["a.test": .reject, "b.test": .reject], "the pins no longer match the served key")
        let reasons = s.runtime.snapshot().results.compactMap { $0.evaluations.first?.reason }
        XCTAssertEqual(reasons, [.pinMismatch, .pinMismatch])
    }

    func testRemovedTargetsAndChangedEndpointsLeaveNoResultBehind() async throws {
        let s = try service(hosts: ["a.test", "b.test", "c.test"])
        _ = await s.runtime.runRound(spread: false)
        // b.test moves to another port under the same name; c.test is removed.
        var config = InProcessService.config(hosts: ["a.test"])
        config += "  - {host: b.test, port: 8443, name: b.test}\n"
        try s.rewrite("pinguard.yml", config)
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertEqual(s.runtime.snapshot().results.map(\.target.name), ["a.test"],
                       "only the unchanged endpoint keeps its result until the next probe")
        XCTAssertNil(s.runtime.store.result(named: "c.test"))
    }

    func testABadFileKeepsTheConfigurationInForce() async throws {
        let s = try service()
        _ = await s.runtime.runRound(spread: false)
        try s.rewrite("pinguard.yml", "interval: often\n")
        let outcome = await s.runtime.reload(trigger: "test")
        guard case .failure(let error) = outcome else { return XCTFail("a bad file must be refused") }
        XCTAssertEqual(error.key, "interval")
        XCTAssertFalse(s.runtime.snapshot().lastReloadSuccessful)
        XCTAssertEqual(s.runtime.configuration.config.targets.map(\.name), ["a.test", "b.test"])
        XCTAssertEqual(verdicts(s), ["a.test": .accept, "b.test": .accept], "results survive a refused reload")

        // A good file afterwards is taken and clears the failure.
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test"]))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertTrue(s.runtime.snapshot().lastReloadSuccessful)
        XCTAssertEqual(s.runtime.snapshot().lastReloadSuccess, s.clock.now, "the success time comes from the service clock")
    }

    func testATrustStoreThatCannotBeLoadedRefusesTheReload() async throws {
        let s = try service()
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test"]))
        s.executor.refuseNextTrustStore()
        let outcome = await s.runtime.reload(trigger: "test")
        guard case .failure(let error) = outcome else { return XCTFail("the reload must be refused") }
        XCTAssertEqual(error.key, "trust.ca_file")
        XCTAssertEqual(s.runtime.configuration.config.targets.count, 2, "the previous configuration stays")
        XCTAssertEqual(s.executor.reconfigurations, 0)
    }

    func testReloadsRunOneAtATimeInTheOrderAskedAndTheNewestFileWins() async throws {
        let log = NIOLockedValueBox<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let s = try service(loader: { (path) throws(ConfigError) -> LoadedConfiguration in
            let loaded = try ConfigurationLoader.load(path: path)
            let first = log.withLockedValue { l -> Bool in
                l.append("load \(loaded.config.targets.count) targets")
                return l.count == 1
            }
            // The first load is slow: the second reload must wait for it, not overtake it.
            if first { gate.wait() }
            return loaded
        })
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test"]))
        let first = Task { await s.runtime.reload(trigger: "first") }
        while log.withLockedValue({ $0.count }) < 1 { await Task.yield() }
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test", "b.test", "c.test"]))
        let second = Task { await s.runtime.reload(trigger: "second") }
        for _ in 0..<200 { await Task.yield() }
        XCTAssertEqual(log.withLockedValue { $0 }, ["load 1 targets"], "the second reload waits while the first loads")
        gate.signal()
        let firstLoaded = try await first.value.get()
        let secondLoaded = try await second.value.get()
        XCTAssertEqual(firstLoaded.config.targets.count, 1)
        XCTAssertEqual(secondLoaded.config.targets.count, 3)
        XCTAssertEqual(log.withLockedValue { $0 }, ["load 1 targets", "load 3 targets"], "in the order asked, never two at once")
        XCTAssertEqual(s.runtime.configuration.config.targets.count, 3, "the newest file is in force")
    }

    func testASetRemovedFromATargetLeavesNoDecisionBehind() async throws {
        let hosts = ["a.test"]
        var config = InProcessService.config(hosts: [])
        config += "  - {host: a.test, port: 443, name: a.test, policy_sets: [app, other]}\n"
        let s = try InProcessService(config: config, policies: [
            "app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [served]),
            "other.yml": InProcessService.policy(name: "other", pattern: "**.test", pins: [other]),
        ])
        for h in hosts { s.serve(h, key: served) }
        _ = await s.runtime.runRound(spread: false)
        XCTAssertEqual(s.runtime.snapshot().results.first?.evaluations.map(\.policySet), ["app", "other"])
        try FileManager.default.removeItem(at: s.directory.appendingPathComponent("policies/other.yml"))
        config = InProcessService.config(hosts: [])
        config += "  - {host: a.test, port: 443, name: a.test, policy_sets: [app]}\n"
        try s.rewrite("pinguard.yml", config)
        _ = try await s.runtime.reload(trigger: "test").get()
        let evaluations = try XCTUnwrap(s.runtime.snapshot().results.first?.evaluations)
        XCTAssertEqual(evaluations.map(\.policySet), ["app"], "no decision of the removed set survives the reload")
        XCTAssertEqual(evaluations.first?.verdict, .accept)
    }

    func testAReloadDuringASpreadRoundEndsItsLaunches() async throws {
        // One probe at a time: the round pauses 250 ms between a result and the next launch.
        let hosts = (1...5).map { "h\($0).test" }
        let s = try InProcessService(config: InProcessService.config(hosts: hosts, concurrency: 1),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [served])])
        for h in hosts { s.serve(h, key: served) }
        let round = Task { await s.runtime.runRound(spread: true) }
        try await s.executor.waitForProbes(1)
        try await s.clock.waitForSleepers()
        XCTAssertEqual(s.clock.deadlines, [s.clock.now.addingTimeInterval(0.25)], "5 targets over half of 60 s: 250 ms apart")
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["new.test"]))
        _ = try await s.runtime.reload(trigger: "test").get()
        s.clock.advance(by: 0.25)
        _ = await round.value
        XCTAssertEqual(s.executor.probes.map(\.host), ["h1.test"], "nothing is launched after the reload")
        XCTAssertFalse(s.runtime.isReady)
    }

    func testAProbeOfAReplacedConfigurationIsJudgedByTheNewOne() async throws {
        let s = try service()
        s.executor.hold("b.test")
        let round = Task { await s.runtime.runRound(spread: false) }
        while s.executor.heldProbes < 1 { await Task.yield() }
        try s.rewrite("policies/app.yml", InProcessService.policy(name: "app", pattern: "**.test", pins: [other]))
        _ = try await s.runtime.reload(trigger: "test").get()
        s.executor.release("b.test")
        let summary = await round.value
        XCTAssertEqual(summary.results.count, 2)
        XCTAssertEqual(verdicts(s)["b.test"], .reject, "b.test was probed under the old policies and judged by the new")
    }

    func testARoundCutShortByAReloadIsNotCounted() async throws {
        let hosts = ["a.test", "b.test", "c.test"]
        let s = try InProcessService(config: InProcessService.config(hosts: hosts, concurrency: 1),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [served])])
        for h in hosts { s.serve(h, key: served) }
        s.executor.hold("a.test")
        let round = Task { await s.runtime.runRound(spread: false) }
        while s.executor.heldProbes < 1 { await Task.yield() }
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: hosts, concurrency: 1))
        _ = try await s.runtime.reload(trigger: "test").get()
        s.executor.release("a.test")
        let summary = await round.value
        XCTAssertEqual(summary.results.map(\.target.name), ["a.test"], "no launch after the reload")
        XCTAssertFalse(s.runtime.isReady)
        XCTAssertNil(s.runtime.snapshot().roundTimestamp)

        // The next round probes the targets the cut round never reached first, and completes.
        let next = await s.runtime.runRound(spread: false)
        XCTAssertEqual(s.executor.probes.dropFirst().map(\.host), ["b.test", "c.test", "a.test"])
        XCTAssertEqual(next.results.count, 3)
        XCTAssertTrue(s.runtime.isReady, "a complete round makes the service ready")
    }

    /// The alias bomb of Tests/Fixtures/repro as a policy file: the reload is refused before the document is
    /// expanded, and the configuration in force keeps working.
    func testAnAliasBombPolicyIsRefusedOnReload() async throws {
        let s = try service()
        _ = await s.runtime.runRound(spread: false)
        let bomb = try String(contentsOfFile: try HostileInputs.path("amp150.yml"), encoding: .utf8)
        try s.rewrite("policies/bomb.yml", bomb)
        let outcome = await s.runtime.reload(trigger: "test")
        guard case .failure(let error) = outcome else { return XCTFail("an alias bomb must be refused") }
        XCTAssertTrue(error.description.contains("YAML anchors and aliases are not allowed"), error.description)
        XCTAssertTrue(error.description.hasPrefix(s.directory.appendingPathComponent("policies/bomb.yml").path), error.description)
        XCTAssertEqual(s.runtime.configuration.policySets.map(\.name), ["app"], "the previous policies stay in force")
        XCTAssertEqual(verdicts(s), ["a.test": .accept, "b.test": .accept])
    }
}
