import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import ServiceLifecycle

/// Runs `pinguard serve`: the scheduler, the HTTP endpoint, SIGHUP reloads and the watchdog in one
/// `ServiceGroup` that stops on SIGTERM/SIGINT.
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
        // Up to `concurrency` probe threads would each get a malloc arena; a few shared arenas keep the
        // resident size of a 10,000-target service well below what one arena per thread leaves behind.
        MallocTuning.limitArenas(4)
        MallocTuning.fixMmapThreshold(1 << 20)
        FileLimits.raiseToHardLimit()
        let loaded: LoadedConfiguration
        let loader = ShardedConfigurationLoader(override: options.shard)
        do { loaded = try loader.load(path: options.configPath) } catch {
            StandardError.write("pinguard: \(error)")
            JournalSink(enabled: true).send(.configInvalid(path: options.configPath, error: error.description))
            return 2
        }
        let listenText = options.listen ?? loaded.config.listen
        guard let address = ListenAddress.parse(listenText) else {
            StandardError.write("pinguard: --listen \"\(listenText)\" is not a listen address (use \":9477\" or \"127.0.0.1:9477\")")
            return 2
        }
        if !options.once, let problem = ListenCheck.problem(address) {
            StandardError.write("pinguard: \(problem) (another pinguard or exporter on that port? choose another with --listen or listen:)")
            return 2
        }
        var webConfig: WebConfigSource?
        if let file = options.endpoint.webConfigFile, !options.once {
            do { webConfig = try WebConfigSource(path: file) } catch {
                StandardError.write("pinguard: --web.config.file: \(error)")
                return 2
            }
        }
        let journal = JournalSink(enabled: loaded.config.journalEnabled, echo: options.logEvents)
        journal.announce()
        let notifier = SystemdNotifier()
        let location = StateLocation.resolve(loaded.config, environment: ProcessInfo.processInfo.environment)
        let memory: ChainMemory
        do { memory = try ChainMemory(location: location, configured: Set(loaded.config.targets.map(\.name))) } catch {
            StandardError.write("pinguard: \(error) (is another pinguard using it? give each instance its own state.path)")
            return 2
        }
        StandardError.write("pinguard: \(location.summary(unavailable: memory.unavailableCause))")
        let runtime: PinGuardRuntime
        do {
            runtime = try PinGuardRuntime(loaded: loaded, journal: journal, notifier: notifier, memory: memory,
                                          loader: { (path) throws(ConfigError) in try loader.load(path: path) })
        } catch {
            memory.close()
            StandardError.write("pinguard: \(error)")
            return 2
        }
        for event in memory.startEvents { journal.send(event) }
        if options.once {
            // One round judged with the lists as fresh as they can be had now.
            await runtime.refreshDueLogLists()
            let round = await runtime.runRound(spread: false)
            // The CRLs the round named, fetched now and judged with: a single round has no next one to wait for.
            await runtime.downloadRevocationLists()
            let results = round.results
            print(OnceSummary.render(results, files: runtime.snapshot().files, duration: round.duration), terminator: "")
            await runtime.shutdown()
            return results.allSatisfy(\.allAccept) && results.count == loaded.config.targets.count ? 0 : 1
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = Logger(label: "pinguard")
        logger.logLevel = .warning
        let server = MetricsServer(backend: runtime, address: address, group: group, options: options.endpoint,
                                   webConfig: webConfig) { bound in
            let port = bound.port ?? address.port
            let shown = address.host.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" } ?? ":\(port)"
            StandardError.write("pinguard: serving /metrics on \(shown), \(loaded.config.targets.count) targets every \(PromDuration.format(loaded.config.interval)), pid \(getpid())")
            notifier.ready(status: "serving on \(shown); first round running")
        }
        let services: [any Service] = [server, ProbeScheduler(runtime: runtime), ReloadOnHangup(runtime: runtime),
                                        TargetFileWatcher(runtime: runtime), RenewalInfoScheduler(runtime: runtime), RevocationScheduler(runtime: runtime),
                                        LogListRefresh(runtime: runtime),
                                       WatchdogPinger(notifier: notifier)]
        let serviceGroup = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        var status: Int32 = 0
        do { try await serviceGroup.run() } catch {
            StandardError.write("pinguard: \(error)")
            status = 1
        }
        notifier.stopping()
        await runtime.shutdown()
        try? await group.shutdownGracefully()
        return status
    }
}
