import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// Probes with OpenSSL on a pool of `concurrency` threads (a probe blocks its thread for up to `timeout`).
///
/// Probes asked for with an allowlist (`GET /probe`) run on threads of their own, so scheduled probes never
/// wait behind them, however many arrive.
public final class ThreadPoolProbeExecutor: ProbeExecutor {
    private struct State {
        var prober: TLSProber
        var pool: NIOThreadPool
        var threads: Int
        var identities: [ClientIdentitySource: ClientIdentity]
        /// Threads for `GET /probe`, started at its first request.
        var onDemand: NIOThreadPool?
    }

    /// Threads probing `GET /probe` targets.
    static let onDemandThreads = 8

    private let state: NIOLockedValueBox<State>
    /// When a probe ended is read here.
    private let clock: any ServiceClock

    /// Creates the executor for `config`; throws when its trust store or a client identity cannot be loaded.
    public init(config: ServiceConfig, clientPaths: ClientPathJudge? = nil, clock: any ServiceClock = WallClock()) throws(ProbeError) {
        self.clock = clock
        let prober = try Self.prober(for: config, clientPaths: clientPaths)
        let identities = try ClientIdentity.loadAll(config.targets)
        let threads = max(config.concurrency, 1)
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        state = NIOLockedValueBox(State(prober: prober, pool: pool, threads: threads, identities: identities))
    }

    /// A prober with the configuration's trust store, collecting SCTs when a policy set checks CT.
    static func prober(for config: ServiceConfig, clientPaths: ClientPathJudge?) throws(ProbeError) -> TLSProber {
        let keyring = config.ct.collect ? try CTLogKeyring(logs: config.ct.allLogs) : nil
        return try TLSProber(caFile: config.caFile, ctLogs: keyring, clientPaths: clientPaths)
    }

    /// Resolves on a pool thread, then probes each address as its own pool task, so `concurrency` bounds the
    /// addresses in flight, not the targets. A probe launched onto a pool retired by a reload moves to the
    /// new pool.
    public func probe(_ target: Target, timeout: Double, allow: ProbeAllowlist?) async -> TargetProbe? {
        let (prober, identities) = state.withLockedValue { ($0.prober, $0.identities) }
        var request = ProbeRequest(target, timeout: timeout)
        request.clientIdentity = target.clientIdentity.flatMap { identities[$0] }
        let cancelled = CancellationFlag()
        let lane: Lane = allow == nil ? .scheduled : .onDemand
        return await withTaskCancellationHandler { [request] () async -> TargetProbe? in
            guard var resolved = await run({ prober.resolve(request, cancelled: { cancelled.isSet }) }, lane, cancelled) else { return nil }
            let host = HostPattern.normalize(request.host)
            if let allow, let refused = resolved.refused(by: allow, host: host, port: request.port) { resolved = refused }
            guard resolved.resolution.error == nil else {
                return TargetProbe(resolution: resolved.resolution, nodes: [], host: host, port: request.port, at: clock.now)
            }
            let nodes: [ProbeFacts]?
            if request.resolve == .first {
                let dial = resolved.dial
                nodes = await run({ prober.probe(request, firstOf: dial, cancelled: { cancelled.isSet }) }, lane, cancelled).map { [$0] }
            } else {
                nodes = await withTaskGroup(of: (Int, ProbeFacts?).self) { group -> [ProbeFacts]? in
                    for (i, address) in resolved.dial.enumerated() {
                        group.addTask { (i, await self.run({ prober.probe(request, at: address, cancelled: { cancelled.isSet }) }, lane, cancelled)) }
                    }
                    var slots = [ProbeFacts?](repeating: nil, count: resolved.dial.count)
                    for await (i, facts) in group { slots[i] = facts }
                    let done = slots.compactMap { $0 }
                    return done.count == slots.count ? done : nil
                }
            }
            guard let nodes, !cancelled.isSet else { return nil }
            return TargetProbe(resolution: resolved.resolution, nodes: nodes, host: host, port: request.port, at: clock.now)
        } onCancel: {
            cancelled.set()
        }
    }

    /// Which threads a probe runs on.
    private enum Lane { case scheduled, onDemand }

    /// The pool of `lane`; the on-demand one is started on first use.
    private func pool(_ lane: Lane) -> NIOThreadPool {
        state.withLockedValue { s in
            guard lane == .onDemand else { return s.pool }
            if let pool = s.onDemand { return pool }
            let pool = NIOThreadPool(numberOfThreads: Self.onDemandThreads)
            pool.start()
            s.onDemand = pool
            return pool
        }
    }

    /// Runs blocking `work` on the lane's pool; nil when cancelled (or the pool stopped for good).
    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T, _ lane: Lane, _ cancelled: CancellationFlag) async -> T? {
        let pool = pool(lane)
        if let value = try? await pool.runIfActive(work) { return cancelled.isSet ? nil : value }
        guard !cancelled.isSet else { return nil }
        let current = self.pool(lane)
        let value = try? await current.runIfActive(work)
        return cancelled.isSet ? nil : value
    }

    /// Loads the new trust store and client identities, then resizes the pool when `concurrency` changed (the old pool finishes
    /// its probes and stops).
    public func reconfigure(for config: ServiceConfig) throws {
        try reconfigure(for: config, clientPaths: state.withLockedValue { $0.prober.clientPaths })
    }

    /// Takes the configuration with `clientPaths` as the judge of the clients' paths.
    public func reconfigure(for config: ServiceConfig, clientPaths: ClientPathJudge?) throws {
        let prober = try Self.prober(for: config, clientPaths: clientPaths)
        let identities = try ClientIdentity.loadAll(config.targets)
        let wanted = max(config.concurrency, 1)
        let retired = state.withLockedValue { s -> NIOThreadPool? in
            s.prober = prober
            s.identities = identities
            guard wanted != s.threads else { return nil }
            let old = s.pool
            s.pool = NIOThreadPool(numberOfThreads: wanted)
            s.pool.start()
            s.threads = wanted
            return old
        }
        if let retired { Task.detached { try? await retired.shutdownGracefully() } }
    }

    /// Stops the probe threads.
    public func shutdown() async {
        let (pool, onDemand) = state.withLockedValue { ($0.pool, $0.onDemand) }
        try? await pool.shutdownGracefully()
        try? await onDemand?.shutdownGracefully()
    }
}
