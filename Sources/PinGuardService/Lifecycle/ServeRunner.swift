import PinGuardCore

/// Runs `pinguard serve` on a configuration: opens it (`ServeRunner+Open.swift`), then either one round
/// (`--once`) or the scheduler, the HTTP endpoint, SIGHUP reloads and the watchdog in one `ServiceGroup` that
/// stops on SIGTERM/SIGINT (`ServeRunner+Serve.swift`).
public enum ServeRunner {
    /// Options of `pinguard serve`.
    public struct Options: Sendable {
        /// Config path.
        public var configPath: String
        /// `--listen` override.
        public var listen: String?
        /// `--once`: one round, a summary, exit.
        public var once: Bool
        /// Echo journal events on stderr too.
        public var logEvents: Bool
        /// `--shard I/N`: probe only this slice of the targets (overrides the config's `shard:`).
        public var shard: TargetShard?
        /// `--replica` and `--vantage` (override the config's `instance:`).
        public var instance = InstanceLabels()
        /// The HTTP endpoint's `--web.*` options.
        public var endpoint: HTTPEndpointOptions

        /// Creates options.
        public init(configPath: String, listen: String?, once: Bool, logEvents: Bool, shard: TargetShard? = nil,
                    endpoint: HTTPEndpointOptions = HTTPEndpointOptions()) {
            self.configPath = configPath
            self.listen = listen
            self.once = once
            self.logEvents = logEvents
            self.shard = shard
            self.endpoint = endpoint
        }
    }

    /// Runs the service; returns the process exit status (0, 1, or 2 for a configuration error).
    public static func run(_ options: Options) async -> Int32 {
        tuneProcess()
        let service: OpenedService
        do { service = try open(options) } catch {
            error.report()
            return 2
        }
        if options.once { return await runOnce(service) }
        return await serve(service, endpoint: options.endpoint)
    }

    /// Memory and file limits for a process of many probes: up to `concurrency` probe threads would each get a
    /// malloc arena; a few shared arenas keep the resident size of a 10,000-target service well below what one
    /// arena per thread leaves behind.
    static func tuneProcess() {
        MallocTuning.limitArenas(4)
        MallocTuning.fixMmapThreshold(1 << 20)
        FileLimits.raiseToHardLimit()
    }
}
