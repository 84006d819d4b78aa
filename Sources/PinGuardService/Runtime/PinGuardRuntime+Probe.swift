import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReports
import PinGuardReaders

extension PinGuardRuntime {
    /// `GET /probe` requests in progress at once, from every client together.
    static let maxProbeRequests = 16
    /// `GET /probe` requests in progress at once from one client address.
    static let maxProbeRequestsPerClient = 4

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
        let target: Target
        switch Self.admit(query, allow: allow, loaded: loaded) {
        case .success(let t): target = t
        case .failure(let refusal): return .refused(refusal.status, refusal.reason)
        }
        let client = query.client ?? ""
        guard probeRequests.take(client: client) else {
            return .refused(503, "too many /probe requests in progress")
        }
        defer { probeRequests.give(client: client) }
        guard let probed = await executor.probe(target, timeout: config.timeout, allow: allow) else {
            return .refused(503, "shutting down")
        }
        if let refused = probed.resolution.refusedAddress {
            return .refused(403, "address \(refused) of \(target.host) is not allowed by probe_allow.networks")
        }
        let probe = await revocation?.attach(to: probed, want: false) ?? probed
        let result = judge(loaded).judge(probe, target: target, now: clock.now)
        if query.debug { return .log(ProbeLog.text(result)) }
        var snapshot = MetricsSnapshot()
        snapshot.results = [result]
        snapshot.certificates = config.certificateSeries
        return .metrics(MetricsRenderer.renderChunks(snapshot, serviceFamilies: false))
    }

    /// The target a query names, when it is a well-formed host or address, and `probe_allow`'s hosts and
    /// ports admit it and its policy sets are loaded; checked in that order, before any slot is taken.
    static func admit(_ query: ProbeQuery, allow: ProbeAllowlist, loaded: LoadedConfiguration) -> Result<Target, ProbeRefusal> {
        let parsed: (host: String, port: Int)
        switch HostPort.parse(query.target) {
        case .success(let hp): parsed = hp
        case .failure(let error): return .failure(ProbeRefusal(400, "target: \(EchoedInput.bare(error.description))"))
        }
        let host: String
        switch HostName.validate(parsed.host) {
        case .success(let name): host = name
        case .failure(let error):
            return .failure(ProbeRefusal(400, "target: \(EchoedInput.quoted(parsed.host)) is not a host name or address: \(error)"))
        }
        guard allow.permits(host: host) else {
            return .failure(ProbeRefusal(403, "target \(EchoedInput.quoted(host)) is not allowed by probe_allow.hosts"))
        }
        guard allow.permits(port: parsed.port) else {
            return .failure(ProbeRefusal(403, "port \(parsed.port) is not allowed by probe_allow.ports"))
        }
        let known = Set(loaded.policySets.map(\.name))
        if let unknown = query.policySets.first(where: { !known.contains($0) }) {
            return .failure(ProbeRefusal(400, "policy_set \(EchoedInput.quoted(unknown)) is not loaded"))
        }
        let config = loaded.config
        return .success(Target(host: host, port: parsed.port, environment: query.environment ?? config.environment,
                               policySets: query.policySets.isEmpty ? nil : query.policySets, resolve: .all,
                               maxAddresses: config.maxAddresses))
    }
}

/// Why `GET /probe` did not probe: the HTTP status and a one-line reason.
struct ProbeRefusal: Error {
    let status: Int
    let reason: String
    init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
