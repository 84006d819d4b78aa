import PinGuardConfig
import PinGuardCore

/// What the HTTP endpoint needs from the service: the metrics, readiness, and a reload.
///
/// The endpoint depends on nothing else of the runtime, so its request handling can be tested with a
/// stand-in backend on an in-memory channel.
public protocol EndpointBackend: Sendable {
    /// The current metrics, rendered by `/metrics`.
    func snapshot() -> MetricsSnapshot
    /// Whether the first probe round has finished (`/-/ready`).
    var isReady: Bool { get }
    /// Re-reads the configuration; a rejected one leaves the running one in place.
    func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError>
    /// Probes one target on request (`GET /probe`).
    func probe(_ query: ProbeQuery) async -> ProbeAnswer
}

extension EndpointBackend {
    /// A backend that cannot probe on request refuses.
    public func probe(_ query: ProbeQuery) async -> ProbeAnswer { .refused(404, "/probe is not available") }
}
