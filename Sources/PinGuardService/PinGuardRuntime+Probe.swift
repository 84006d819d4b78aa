import Foundation
import PinGuardCore

extension PinGuardRuntime {
    /// Probes at most this many `/probe` targets at once; more get 503.
    static let maxConcurrentProbeRequests = 16

    /// `GET /probe`: checks the query against `probe_allow`, probes the target once (every address, each
    /// checked against the allowlist before anything is dialled), judges it by the loaded policy sets and
    /// answers its series. Nothing is recorded: /metrics, the journal and the counters see only scheduled
    /// probes.
    public func probe(_ query: ProbeQuery) async -> ProbeAnswer {
        let loaded = configuration
        let config = loaded.config
        guard let allow = config.probeAllow else {
            return .refused(403, "/probe is off: the configuration has no probe_allow")
        }
        let parsed: (host: String, port: Int)
        switch HostPort.parse(query.target) {
        case .success(let hp): parsed = hp
        case .failure(let error): return .refused(400, "target: \(EchoedInput.bare(error.description))")
        }
        let host = HostPattern.normalize(parsed.host)
        guard Target.isServerName(host), host.utf8.count <= 253 else {
            return .refused(400, "target: \(EchoedInput.quoted(host)) is not a host name")
        }
        guard allow.permits(host: host) else {
            return .refused(403, "target \(EchoedInput.quoted(host)) is not allowed by probe_allow.hosts")
        }
        let known = Set(loaded.policySets.map(\.name))
        if let unknown = query.policySets.first(where: { !known.contains($0) }) {
            return .refused(400, "policy_set \(EchoedInput.quoted(unknown)) is not loaded")
        }
        guard probeRequests.withLockedValue({ n in
            guard n < Self.maxConcurrentProbeRequests else { return false }
            n += 1
            return true
        }) else {
            return .refused(503, "too many /probe requests in progress")
        }
        defer { probeRequests.withLockedValue { $0 -= 1 } }
        let target = Target(host: host, port: parsed.port, environment: query.environment ?? config.environment,
                            policySets: query.policySets.isEmpty ? nil : query.policySets, resolve: .all,
                            maxAddresses: config.maxAddresses)
        guard let probe = await executor.probe(target, timeout: config.timeout, allow: allow) else {
            return .refused(503, "shutting down")
        }
        if let refused = probe.resolution.refusedAddress {
            return .refused(403, "address \(refused) of \(host) is not allowed by probe_allow.networks")
        }
        var snapshot = MetricsSnapshot()
        snapshot.results = [TargetResult.evaluate(probe, target: target, sets: loaded.policySets, now: clock.now)]
        snapshot.certificates = config.certificateSeries
        return .metrics(MetricsRenderer.renderChunks(snapshot, serviceFamilies: false))
    }
}
