import PinGuardCore
import PinGuardCrypto
import PinGuardReaders

/// Runs one probe of a target (its resolution and every address it probes) and returns what it learned;
/// how (threads, trust store) is the executor's.
///
/// The scheduler and rounds see only this, so they are tested in-process with an executor that answers
/// from prepared facts; production uses `ThreadPoolProbeExecutor`.
public protocol ProbeExecutor: Sendable {
    /// Probes `target`, each address within `timeout` seconds; nil when the task was cancelled before the
    /// probe finished (a probe cut short by shutdown learned nothing about the server). With `allow`, a
    /// target with any resolved address outside it is not dialled at all (its resolution carries the error).
    func probe(_ target: Target, timeout: Double, allow: ProbeAllowlist?) async -> TargetProbe?

    /// Takes the trust store and probe concurrency of a new configuration; throws (changing nothing) when
    /// the trust store cannot be loaded.
    func reconfigure(for config: ServiceConfig) throws

    /// Takes a new configuration as `reconfigure(for:)` does, with the path judge of its clients' stores.
    func reconfigure(for config: ServiceConfig, clientPaths: ClientPathJudge?) throws

    /// Stops what the executor started (threads); probes after this fail.
    func shutdown() async
}

extension ProbeExecutor {
    /// Probes a configured target (no address allowlist).
    public func probe(_ target: Target, timeout: Double) async -> TargetProbe? {
        await probe(target, timeout: timeout, allow: nil)
    }

    /// An executor that judges no client paths takes the configuration alone.
    public func reconfigure(for config: ServiceConfig, clientPaths: ClientPathJudge?) throws {
        try reconfigure(for: config)
    }

    /// Nothing to stop by default.
    public func shutdown() async {}
}
