import Foundation
import PinGuardCore
import PinGuardReaders
import ServiceLifecycle
import UnixSignals

/// Runs a probe round per interval until shutdown; a reload wakes it early.
public struct ProbeScheduler: Service {
    let runtime: PinGuardRuntime

    /// Creates the scheduler.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Loops rounds; in-flight probes are cancelled on graceful shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await RoundScheduler(runtime: runtime).run() }
    }
}

/// Checks the CAs' renewal information (RFC 9773) for the certificates served, on its own schedule.
public struct RenewalInfoScheduler: Service {
    let runtime: PinGuardRuntime

    /// Creates the scheduler.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Checks until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await runtime.watchRenewalInfo() }
    }
}

/// Downloads the CRLs the rounds want, beside them; shutdown abandons the downloads in flight.
public struct RevocationScheduler: Service {
    let runtime: PinGuardRuntime

    /// Creates the scheduler.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Downloads until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await runtime.watchRevocation() }
    }
}

/// Reloads the configuration on SIGHUP.
public struct ReloadOnHangup: Service {
    let runtime: PinGuardRuntime

    /// Creates the signal handler service.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Handles SIGHUP until shutdown.
    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            _ = await runtime.reload(trigger: "SIGHUP")
        }
    }
}

/// Reloads when the files of `target_files` change (checked every 5 s), as Prometheus' file_sd does.
public struct TargetFileWatcher: Service {
    let runtime: PinGuardRuntime

    /// Creates the watcher.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Watches until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await runtime.watchTargetFiles() }
    }
}

/// Keeps the log lists given by URL fresh (`ct.log_lists.NAME: URL`, every `ct.refresh`).
public struct LogListRefresh: Service {
    let runtime: PinGuardRuntime

    /// Creates the refresher service.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Refreshes until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await runtime.refreshLogLists() }
    }
}

/// Pings the systemd watchdog at half its interval, from its own timer (rounds can be longer).
public struct WatchdogPinger: Service {
    let notifier: SystemdNotifier

    /// Creates the pinger.
    public init(notifier: SystemdNotifier) { self.notifier = notifier }

    /// Pings until shutdown; returns at once when no watchdog is configured.
    public func run() async throws {
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        // The sleep must not throw: a CancellationError here, on graceful shutdown, made the ServiceGroup
        // cancel the group, and the HTTP server (waiting on its closeFuture) never ended: SIGTERM hung.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                notifier.watchdog()
                try? await Task.sleep(nanoseconds: UInt64(interval / 2 * 1e9))
            }
        }
    }
}
