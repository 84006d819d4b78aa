import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders
import PinGuardService

/// A probe executor for in-process tests: answers each probe from a script of facts per host, records
/// when (on the test clock) each probe ran, and can hold probes of a host until released.
public final class ScriptedProbeExecutor: ProbeExecutor {
    private struct State {
        var answers: [String: TargetProbe] = [:]
        var held: Set<String> = []
        var waiting: [(token: String, host: String, continuation: CheckedContinuation<Void, Never>)] = []
        var cancelled: Set<String> = []
        var probes: [(host: String, at: Date)] = []
        var reconfigurations = 0
        var refuseTrustStore = false
    }

    private let box = NIOLockedValueBox(State())
    private let clock: any ServiceClock

    /// Creates an executor reading the time from `clock`.
    public init(clock: any ServiceClock) { self.clock = clock }

    /// Sets what a probe of `host` returns from now on (its `finishedAt` is the probe's time on the clock).
    public func answer(_ host: String, with facts: ProbeFacts) { answer(host, with: TargetProbe(single: facts)) }

    /// Sets what a probe of `host` returns from now on, address by address.
    public func answer(_ host: String, with probe: TargetProbe) { box.withLockedValue { $0.answers[host] = probe } }

    /// Makes probes of `host` wait until `release(host)`.
    public func hold(_ host: String) { box.withLockedValue { _ = $0.held.insert(host) } }

    /// Lets held probes of `host` (and later ones) finish.
    public func release(_ host: String) {
        let waiting = box.withLockedValue { s -> [CheckedContinuation<Void, Never>] in
            s.held.remove(host)
            let w = s.waiting.filter { $0.host == host }.map(\.continuation)
            s.waiting.removeAll { $0.host == host }
            return w
        }
        for c in waiting { c.resume() }
    }

    /// Makes the next `reconfigure` throw, as a missing CA file would.
    public func refuseNextTrustStore() { box.withLockedValue { $0.refuseTrustStore = true } }

    /// Hosts probed so far with the clock time each probe started, in order.
    public var probes: [(host: String, at: Date)] { box.withLockedValue { $0.probes } }

    /// Waits (yielding) until at least `count` probes have started; fails after `attempts` checks.
    public func waitForProbes(_ count: Int, attempts: Int = 20_000) async throws {
        for _ in 0..<attempts {
            if probes.count >= count { return }
            await Task.yield()
            try await Task.sleep(nanoseconds: 100_000)
        }
        throw ManualClockError("\(probes.count) probes started, expected \(count)")
    }

    /// Number of probes currently held.
    public var heldProbes: Int { box.withLockedValue { $0.waiting.count } }

    /// How often `reconfigure` succeeded.
    public var reconfigurations: Int { box.withLockedValue { $0.reconfigurations } }

    /// Answers from the script; a host with no answer fails with "connection refused".
    public func probe(_ target: Target, timeout: Double, allow: ProbeAllowlist?) async -> TargetProbe? {
        let started = clock.now
        let held = box.withLockedValue { s -> Bool in
            s.probes.append((target.host, started))
            return s.held.contains(target.host)
        }
        if held {
            let token = UUID().uuidString
            await withTaskCancellationHandler {
                await withCheckedContinuation { c in
                    let go = box.withLockedValue { s -> Bool in
                        guard s.held.contains(target.host), !s.cancelled.contains(token) else { return true }
                        s.waiting.append((token, target.host, c))
                        return false
                    }
                    if go { c.resume() }
                }
            } onCancel: {
                let waiter = box.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                    s.cancelled.insert(token)
                    guard let i = s.waiting.firstIndex(where: { $0.token == token }) else { return nil }
                    return s.waiting.remove(at: i).continuation
                }
                waiter?.resume()
            }
        }
        if Task.isCancelled { return nil }
        var probe = box.withLockedValue { $0.answers[target.host] }
            ?? TargetProbe(single: ProbeFacts(host: target.host, port: target.port, error: "connection refused", finishedAt: started))
        let now = clock.now
        for i in probe.nodes.indices {
            probe.nodes[i].port = target.port
            probe.nodes[i].finishedAt = now
        }
        return probe
    }

    /// Counts reconfigurations; throws once after `refuseNextTrustStore()`.
    public func reconfigure(for config: ServiceConfig) throws {
        let refuse = box.withLockedValue { s -> Bool in
            defer { s.refuseTrustStore = false }
            if !s.refuseTrustStore { s.reconfigurations += 1 }
            return s.refuseTrustStore
        }
        if refuse { throw ScriptedTrustStoreError() }
    }
}

/// The trust store refusal of `ScriptedProbeExecutor.refuseNextTrustStore()`.
public struct ScriptedTrustStoreError: Error, CustomStringConvertible {
    /// "cannot load the trust store".
    public var description: String { "cannot load the trust store (scripted)" }
}
