import CSystemd
import Foundation

/// Talks to the service manager through `sd_notify`: READY, STATUS, WATCHDOG, RELOADING and STOPPING.
/// Every call is a no-op when not started by systemd (no `NOTIFY_SOCKET`).
public struct SystemdNotifier: Sendable {
    /// Creates a notifier.
    public init() {}

    /// Sends raw notify state, e.g. `READY=1\nSTATUS=…`.
    public func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The service is serving.
    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }

    /// Free-form status line shown by `systemctl status`.
    public func status(_ text: String) { notify("STATUS=\(text)") }

    /// A reload starts (`RELOADING=1` with the monotonic timestamp systemd 253+ expects).
    public func reloading() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let usec = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
        notify("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }

    /// Shutdown begins.
    public func stopping() { notify("STOPPING=1") }

    /// Keep-alive ping.
    public func watchdog() { notify("WATCHDOG=1") }

    /// The watchdog interval systemd asked for (`WATCHDOG_USEC`), nil when disabled.
    public var watchdogInterval: Double? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Double(usec) / 1e6
    }
}
