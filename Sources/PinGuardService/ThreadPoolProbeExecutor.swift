import NIOConcurrencyHelpers
import NIOPosix
import PinGuardCore
import PinGuardProbe

/// Probes with OpenSSL on a pool of `concurrency` threads (a probe blocks its thread for up to `timeout`).
public final class ThreadPoolProbeExecutor: ProbeExecutor {
    private struct State {
        var prober: TLSProber
        var pool: NIOThreadPool
        var threads: Int
    }

    private let state: NIOLockedValueBox<State>

    /// Creates the executor for `config`; throws when its trust store cannot be loaded.
    public init(config: ServiceConfig) throws(ProbeError) {
        let prober = try TLSProber(caFile: config.caFile)
        let threads = max(config.concurrency, 1)
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        state = NIOLockedValueBox(State(prober: prober, pool: pool, threads: threads))
    }

    /// Probes on a pool thread; a probe launched onto a pool retired by a reload moves to the new pool.
    public func probe(_ target: Target, timeout: Double) async -> ProbeFacts? {
        let request = ProbeRequest(host: target.host, port: target.port, connect: target.connect, timeout: timeout)
        let cancelled = CancellationFlag()
        let (prober, pool) = state.withLockedValue { ($0.prober, $0.pool) }
        let facts = await withTaskCancellationHandler { () async -> ProbeFacts? in
            if let facts = try? await pool.runIfActive({ prober.probe(request, cancelled: { cancelled.isSet }) }) {
                return facts
            }
            guard !cancelled.isSet else { return nil }
            let current = state.withLockedValue { $0.pool }
            return try? await current.runIfActive { prober.probe(request, cancelled: { cancelled.isSet }) }
        } onCancel: {
            cancelled.set()
        }
        return cancelled.isSet ? nil : facts
    }

    /// Loads the new trust store, then resizes the pool when `concurrency` changed (the old pool finishes
    /// its probes and stops).
    public func reconfigure(for config: ServiceConfig) throws {
        let prober = try TLSProber(caFile: config.caFile)
        let wanted = max(config.concurrency, 1)
        let retired = state.withLockedValue { s -> NIOThreadPool? in
            s.prober = prober
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
        try? await state.withLockedValue { $0.pool }.shutdownGracefully()
    }
}
