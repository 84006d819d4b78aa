import PinGuardConfig
import PinGuardCore
import PinGuardReaders

/// What the HTTP endpoint needs from the service: the metrics, readiness, and a reload.
///
/// The endpoint depends on nothing else of the runtime, so its request handling can be tested with a
/// stand-in backend on an in-memory channel.
public protocol EndpointBackend: Sendable {
    /// The current metrics, rendered by `/metrics`.
    func snapshot() -> MetricsSnapshot
    /// The `/metrics` body, a gzip member when `gzip`; called off the event loop.
    func metricsBody(gzip: Bool) -> ResponseBody
    /// Brings what `metricsBody` keeps between scrapes up to date (called in the background every few
    /// seconds, so that a scrape finds little to render).
    func refreshMetrics()
    /// Whether the first probe round has finished (`/-/ready`).
    var isReady: Bool { get }
    /// Re-reads the configuration; a rejected one leaves the running one in place.
    func reload(trigger: String) async -> Result<LoadedConfiguration, ConfigError>
    /// Probes one target on request (`GET /probe`).
    func probe(_ query: ProbeQuery) async -> ProbeAnswer
    /// The latest result of the target named `name`, and what the memory knows of it (`GET /targets/NAME`).
    func target(named name: String) -> (result: TargetResult, memory: TargetMemoryFacts?)?
}

extension EndpointBackend {
    /// `/metrics` rendered whole from `snapshot()`, gzipped here when the client takes it.
    public func metricsBody(gzip: Bool) -> ResponseBody {
        ResponseBody(chunks: MetricsRenderer.renderChunks(snapshot()), gzip: gzip)
    }

    /// Nothing is kept between scrapes: nothing to bring up to date.
    public func refreshMetrics() {}

    /// No target pages by default.
    public func target(named name: String) -> (result: TargetResult, memory: TargetMemoryFacts?)? { nil }

    /// A backend that cannot probe on request refuses.
    public func probe(_ query: ProbeQuery) async -> ProbeAnswer { .refused(404, "/probe is not available") }
}
