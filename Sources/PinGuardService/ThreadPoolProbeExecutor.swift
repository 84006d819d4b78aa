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
        var identities: [ClientIdentitySource: ClientIdentity]
    }

    private let state: NIOLockedValueBox<State>

    /// Creates the executor for `config`; throws when its trust store or a client identity cannot be loaded.
    public init(config: ServiceConfig) throws(ProbeError) {
        let prober = try TLSProber(caFile: config.caFile)
        let identities = try ClientIdentity.loadAll(config.targets)
        let threads = max(config.concurrency, 1)
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        state = NIOLockedValueBox(State(prober: prober, pool: pool, threads: threads, identities: identities))
    }

    /// Probes on a pool thread; a probe launched onto a pool retired by a reload moves to the new pool.
    public func probe(_ target: Target, timeout: Double) async -> ProbeFacts? {
        var request = ProbeRequest(host: target.host, port: target.port, connect: target.connect, timeout: timeout)
        let cancelled = CancellationFlag()
        let (prober, pool, identities) = state.withLockedValue { ($0.prober, $0.pool, $0.identities) }
        request.clientIdentity = target.clientIdentity.flatMap { identities[$0] }
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
        guard !cancelled.isSet, var facts else { return nil }
        if let identity = request.clientIdentity {
            // Exported even when the probe ended before the handshake: the client certificate expires regardless.
            facts.clientAuth.certificateSubject = identity.subject
            facts.clientAuth.certificateNotAfter = identity.notAfter
        }
        return facts
    }

    /// Loads the new trust store and client identities, then resizes the pool when `concurrency` changed (the old pool finishes
    /// its probes and stops).
    public func reconfigure(for config: ServiceConfig) throws {
        let prober = try TLSProber(caFile: config.caFile)
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
        try? await state.withLockedValue { $0.pool }.shutdownGracefully()
    }
}
