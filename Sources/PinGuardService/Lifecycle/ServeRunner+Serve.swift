import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import PinGuardCore
import ServiceLifecycle

/// Running an opened service: one round for `--once`, else every service in one group until SIGTERM/SIGINT.
extension ServeRunner {
    /// One round judged with the lists as fresh as they can be had now, its summary on stdout; 0 when every client
    /// accepts every target, else 1.
    static func runOnce(_ service: OpenedService) async -> Int32 {
        let runtime = service.runtime
        await runtime.refreshDueLogLists()
        let round = await runtime.runRound(spread: false)
        // The CRLs the round named, fetched now and judged with: a single round has no next one to wait for.
        await runtime.downloadRevocationLists()
        let results = round.results
        print(OnceSummary.render(results, files: runtime.snapshot().files, duration: round.duration), terminator: "")
        await runtime.shutdown()
        return results.allSatisfy(\.allAccept) && results.count == service.loaded.config.targets.count ? 0 : 1
    }

    /// The endpoint and the schedulers until shutdown, then everything stopped; 1 when the group failed, else 0.
    static func serve(_ service: OpenedService, endpoint: HTTPEndpointOptions) async -> Int32 {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = metricsServer(service, endpoint: endpoint, group: group)
        let status = await runGroup(services(service, server: server))
        service.notifier.stopping()
        await service.runtime.shutdown()
        try? await group.shutdownGracefully()
        return status
    }

    /// The HTTP endpoint on `group`, which says where it serves once its socket listens.
    static func metricsServer(_ service: OpenedService, endpoint: HTTPEndpointOptions, group: MultiThreadedEventLoopGroup) -> MetricsServer {
        MetricsServer(backend: service.runtime, address: service.address, group: group, options: endpoint,
                      webConfig: service.webConfig) { bound in announceServing(service, port: bound.port ?? service.address.port) }
    }

    /// Says on stderr and to systemd that the service is ready, on which address and `port`.
    static func announceServing(_ service: OpenedService, port: Int) {
        let config = service.loaded.config
        let shown = service.address.host.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" } ?? ":\(port)"
        StandardError.write("pinguard: serving /metrics on \(shown), \(config.targets.count) targets every \(PromDuration.format(config.interval)), pid \(getpid())")
        service.notifier.ready(status: "serving on \(shown); first round running")
    }

    /// Every long-running part of the service: the endpoint, the rounds, reloads, the downloads beside the rounds
    /// and the watchdog.
    static func services(_ service: OpenedService, server: MetricsServer) -> [any Service] {
        let runtime = service.runtime
        return [server, ProbeScheduler(runtime: runtime), ReloadOnHangup(runtime: runtime),
                TargetFileWatcher(runtime: runtime), RenewalInfoScheduler(runtime: runtime), RevocationScheduler(runtime: runtime),
                LogListRefresh(runtime: runtime), WatchdogPinger(notifier: service.notifier)]
    }

    /// Runs `services` in one group that shuts down gracefully on SIGTERM and SIGINT; 1 when it failed, else 0.
    static func runGroup(_ services: [any Service]) async -> Int32 {
        var logger = Logger(label: "pinguard")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do { try await group.run() } catch {
            StandardError.write("pinguard: \(error)", level: .error)
            return 1
        }
        return 0
    }
}
