import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import PinGuardConfig
import PinGuardCore
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
        var webConfig: WebConfigSource?
        if let file = options.endpoint.webConfigFile, !options.once {
            do { webConfig = try WebConfigSource(path: file) } catch {
                StandardError.write("pinguard: --web.config.file: \(error)")
                return 2
            }
        }
        let journal = JournalSink(enabled: loaded.config.journalEnabled, echo: options.logEvents)
        let notifier = SystemdNotifier()
        let runtime: PinGuardRuntime
        do {
            runtime = try PinGuardRuntime(loaded: loaded, journal: journal, notifier: notifier,
                                          loader: { (path) throws(ConfigError) in try loader.load(path: path) })
        } catch {
            StandardError.write("pinguard: \(error)")
            return 2
        }
        if options.once {
            let round = await runtime.runRound(spread: false)
            print(OnceSummary.render(round.results, duration: round.duration), terminator: "")
            await runtime.shutdown()
            return round.results.allSatisfy(\.allAccept) && round.results.count == loaded.config.targets.count ? 0 : 1
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

/// The stdout summary of `serve --once`.
public enum OnceSummary {
    /// One line per target and policy set, then a totals line.
    public static func render(_ results: [TargetResult], duration: Double) -> String {
        var rows: [[String]] = []
        for r in results {
            let probe = r.facts.success ? (r.facts.trusted ? "ok, trusted" : "ok, UNTRUSTED: \(r.facts.trustError ?? "")") : "FAILED: \(r.facts.error ?? "")"
            if r.evaluations.isEmpty {
                rows.append([r.target.name, probe, "-", "-", "policy_missing (no set covers the host)", "-"])
            }
            for e in r.evaluations {
                rows.append([r.target.name, probe, e.policySet + "/" + e.environment, e.verdict.rawValue.uppercased(), e.reason.rawValue,
                             e.daysToPinBreakage.map { String(format: "%.1f", $0) } ?? "-"])
            }
        }
        let rejects = results.filter { r in r.evaluations.contains { $0.verdict == .reject } }.count
        let failed = results.filter { !$0.facts.success }.count
        return TextTable.render(header: ["target", "probe", "policy_set", "verdict", "reason", "days_to_pin_breakage"], rows: rows)
            + "\(results.count) targets in \(String(format: "%.2f", duration))s: \(rejects) rejected by a client, \(failed) probes failed\n"
    }
}

/// glibc allocator tuning; `mallopt` is not exported by the Glibc module, so it is looked up at run time.
enum MallocTuning {
    /// `mallopt(M_ARENA_MAX, n)`; M_ARENA_MAX is -8 in glibc's malloc.h.
    static func limitArenas(_ n: Int32) { mallopt(-8, n) }

    /// `mallopt(M_MMAP_THRESHOLD, bytes)` (-3): the /metrics buffers (megabytes each, every scrape) are
    /// always mapped and unmapped, instead of glibc's sliding threshold moving them into the heap where
    /// freed pages stay resident.
    static func fixMmapThreshold(_ bytes: Int32) { mallopt(-3, bytes) }

    private static func mallopt(_ parameter: Int32, _ value: Int32) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(parameter, value)
    }
}

/// The open-file limit: every probe and every HTTP client needs a descriptor, and the default soft limit
/// (1,024) is below what `concurrency` plus a few hundred scrapers can use.
enum FileLimits {
    /// Raises the soft RLIMIT_NOFILE to the hard limit.
    static func raiseToHardLimit() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
