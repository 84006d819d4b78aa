import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardServiceTestSupport
import XCTest

/// The round schedule on a test clock: when rounds start, how probes are spread, what a reload does to
/// the schedule. In-process, no network, no wall-clock waits.
final class RuntimeScheduleTests: XCTestCase {
    private let pinA = InProcessService.pin(byte: 1)
    private let pinB = InProcessService.pin(byte: 2)

    private func service(hosts: [String] = ["a.test", "b.test"], interval: String = "60s", concurrency: Int = 4) throws -> InProcessService {
        let s = try InProcessService(config: InProcessService.config(hosts: hosts, interval: interval, concurrency: concurrency),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [pinA, pinB])])
        for h in hosts { s.serve(h, key: pinA) }
        return s
    }

    private func startScheduler(_ s: InProcessService) -> Task<Void, Never> {
        Task { await RoundScheduler(runtime: s.runtime).run() }
    }

    private func offsets(_ s: InProcessService, from start: Date) -> [Double] {
        s.executor.probes.map { $0.at.timeIntervalSince(start) }
    }

    func testFirstRoundProbesEveryTargetAtOnceAndTheNextStartsOneIntervalLater() async throws {
        let s = try service()
        let start = s.clock.now
        let scheduler = startScheduler(s)
        defer { scheduler.cancel() }
        try await s.clock.waitForSleepers()
        XCTAssertEqual(offsets(s, from: start), [0, 0], "the first round launches every target at once")
        XCTAssertTrue(s.runtime.isReady)
        XCTAssertEqual(s.clock.deadlines, [start.addingTimeInterval(60)], "the next round is due one interval after the first started")

        s.clock.advance(by: 59)
        await Task.yield()
        XCTAssertEqual(s.executor.probes.count, 2, "no probe before the interval is over")
        s.clock.advance(by: 1)
        // Later rounds are spread: two targets over half of 60 s, at most 250 ms apart.
        try await s.executor.waitForProbes(3)
        try await s.clock.waitForSleepers()
        XCTAssertEqual(offsets(s, from: start).dropFirst(2).first, 60)
        s.clock.advance(by: 0.25)
        try await s.executor.waitForProbes(4)
        XCTAssertEqual(Array(offsets(s, from: start).dropFirst(2)), [60, 60.25])
    }

    func testRoundsStartOneIntervalApartEvenWhenARoundIsSlow() async throws {
        let s = try service(hosts: ["slow.test", "a.test"])
        s.executor.hold("slow.test")
        let start = s.clock.now
        let scheduler = startScheduler(s)
        defer { scheduler.cancel() }
        while s.executor.heldProbes < 1 { await Task.yield() }
        s.clock.advance(by: 40)
        s.executor.release("slow.test")
        try await s.clock.waitForSleepers()
        let duration = try XCTUnwrap(s.runtime.snapshot().roundDuration)
        XCTAssertEqual(duration, 40, accuracy: 0.001, "the round lasted as long as its slowest probe")
        XCTAssertEqual(s.clock.deadlines, [start.addingTimeInterval(60)],
                       "the next round starts one interval after this one started, not after it ended")
    }

    func testAReloadProbesOnlyTheNewTargetsAtOnceAndKeepsTheSchedule() async throws {
        let s = try service()
        let start = s.clock.now
        let scheduler = startScheduler(s)
        defer { scheduler.cancel() }
        try await s.clock.waitForSleepers()
        s.clock.advance(by: 10)
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: ["a.test", "b.test", "c.test"]))
        s.serve("c.test", key: pinA)
        _ = try await s.runtime.reload(trigger: "test").get()
        try await s.executor.waitForProbes(3)
        try await s.clock.waitForSleepers()
        for _ in 0..<50 { await Task.yield() }
        let probed = s.executor.probes.map(\.host)
        XCTAssertEqual(Set(probed.prefix(2)), ["a.test", "b.test"], "the first round, its probes in either order")
        XCTAssertEqual(probed.dropFirst(2), ["c.test"], "only the target that has no result is probed after the reload")
        XCTAssertEqual(s.clock.deadlines, [start.addingTimeInterval(60)], "the next full round is still due one interval after the first")
        XCTAssertEqual(s.runtime.configuration.config.targets.count, 3)

        s.clock.advance(by: 50)
        try await s.executor.waitForProbes(4)
        XCTAssertEqual(s.executor.probes.dropFirst(3).first?.host, "a.test", "at its due time the full round probes every target")
        XCTAssertEqual(try XCTUnwrap(s.runtime.snapshot().roundLateness), 0, accuracy: 0.001, "a catch-up does not make the round late")
    }

    func testAPolicyEditProbesNothingUntilTheRoundIsDue() async throws {
        let s = try service()
        let start = s.clock.now
        let scheduler = startScheduler(s)
        defer { scheduler.cancel() }
        try await s.clock.waitForSleepers()
        try s.rewrite("policies/app.yml", InProcessService.policy(name: "app", pattern: "**.test", pins: [pinB]))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertEqual(s.runtime.store.result(named: "a.test")?.evaluations.first?.verdict, .reject,
                       "the kept result is judged by the edited policy without a probe")
        for _ in 0..<50 { await Task.yield() }
        try await s.clock.waitForSleepers()
        XCTAssertEqual(s.executor.probes.count, 2, "every target was probed in this round: the reload probes nothing")
        XCTAssertEqual(s.clock.deadlines, [start.addingTimeInterval(60)])
    }

    func testACatchUpFinishesARoundCutShortByAReload() async throws {
        let hosts = ["a.test", "b.test", "c.test"]
        let s = try service(hosts: hosts, concurrency: 1)
        s.executor.hold("a.test")
        let scheduler = startScheduler(s)
        defer { scheduler.cancel() }
        while s.executor.heldProbes < 1 { await Task.yield() }
        try s.rewrite("pinguard.yml", InProcessService.config(hosts: hosts, concurrency: 1))
        _ = try await s.runtime.reload(trigger: "test").get()
        XCTAssertFalse(s.runtime.isReady)
        s.clock.advance(by: 5)
        s.executor.release("a.test")
        try await s.executor.waitForProbes(3)
        try await s.clock.waitForSleepers()
        XCTAssertEqual(s.executor.probes.map(\.host), hosts, "the catch-up probes what the cut round never reached, and nothing twice")
        XCTAssertTrue(s.runtime.isReady, "the round, finished by the catch-up, is complete")
        XCTAssertEqual(try XCTUnwrap(s.runtime.snapshot().roundDuration), 5, accuracy: 0.001, "counted from the cut round's start")
    }

    func testConcurrencyBoundsProbesInFlight() async throws {
        let hosts = (1...5).map { "h\($0).test" }
        let s = try service(hosts: hosts, concurrency: 2)
        for h in hosts { s.executor.hold(h) }
        let round = Task { await s.runtime.runRound(spread: false) }
        while s.executor.heldProbes < 2 { await Task.yield() }
        for _ in 0..<50 { await Task.yield() }
        XCTAssertEqual(s.executor.probes.count, 2, "only `concurrency` probes are launched at once")
        for h in hosts { s.executor.release(h) }
        let summary = await round.value
        XCTAssertEqual(summary.results.map(\.target.name), hosts, "results come in configuration order")
    }

    func testCancellingARoundRecordsNothingForUnfinishedProbes() async throws {
        let s = try service(hosts: ["a.test", "hang.test"])
        s.executor.hold("hang.test")
        let round = Task { await s.runtime.runRound(spread: false) }
        while s.executor.heldProbes < 1 || s.runtime.store.result(named: "a.test") == nil { await Task.yield() }
        round.cancel()
        _ = await round.value
        XCTAssertNil(s.runtime.store.result(named: "hang.test"), "a probe cut short learned nothing")
        XCTAssertEqual(s.runtime.snapshot().probesTotal, 1)
        XCTAssertFalse(s.runtime.isReady, "a cancelled round is not a complete round")
    }
}

/// How late rounds start, and the process figures the runtime reports.
final class RuntimeRoundLatenessTests: XCTestCase {
    func testARoundLongerThanTheIntervalMakesTheNextOneLate() async throws {
        let pin = InProcessService.pin(byte: 1)
        let s = try InProcessService(config: InProcessService.config(hosts: ["slow.test", "a.test"]),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "**.test", pins: [pin])])
        s.serve("slow.test", key: pin)
        s.serve("a.test", key: pin)
        s.executor.hold("slow.test")
        let scheduler = Task { await RoundScheduler(runtime: s.runtime).run() }
        defer { scheduler.cancel() }
        while s.executor.heldProbes < 1 { await Task.yield() }
        XCTAssertEqual(s.runtime.snapshot().roundLateness, 0, "the first round starts when it is due")
        s.clock.advance(by: 90)
        s.executor.release("slow.test")
        // Interval 60 s: the second round was due at 60 s and starts at 90 s.
        try await s.executor.waitForProbes(3)
        XCTAssertEqual(try XCTUnwrap(s.runtime.snapshot().roundLateness), 30, accuracy: 0.001)
    }

    func testTheSnapshotReportsThisProcess() throws {
        let s = try InProcessService(config: InProcessService.config(hosts: ["a.test"]),
                                     policies: ["app.yml": InProcessService.policy(name: "app", pattern: "a.test", pins: [InProcessService.pin(byte: 1)])])
        let p = try XCTUnwrap(s.runtime.snapshot().process)
        XCTAssertGreaterThan(p.openFDs ?? 0, 2)
        XCTAssertGreaterThan(p.residentMemoryBytes ?? 0, 1_048_576)
        XCTAssertGreaterThan(p.cpuSeconds ?? 0, 0)
        XCTAssertGreaterThan(p.threads ?? 0, 0)
        XCTAssertEqual(p.startTime ?? 0, Date().timeIntervalSince1970, accuracy: 86_400, "started today")
    }
}
