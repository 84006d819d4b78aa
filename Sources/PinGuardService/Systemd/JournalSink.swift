import CSystemd
import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// Writes journal events through libsystemd's native protocol (`sd_journal_sendv`).
///
/// Without a journal socket (or with the journal full) the service keeps running: the failure is counted,
/// one line says why (once per cause), and the events go to stderr instead, so nothing is lost silently.
public final class JournalSink: Sendable {
    private let enabledBox: NIOLockedValueBox<Bool>
    private let identityBox = NIOLockedValueBox<[(String, String)]>([])
    private let failureCount = NIOLockedValueBox<UInt64>(0)
    /// The cause of the last failed write, said once; nil while writes succeed.
    private let failing = NIOLockedValueBox<String?>(nil)
    private let echo: Bool
    private let socketPath = "/run/systemd/journal/socket"

    /// Creates a sink; `enabled: false` drops events (config `journal.enabled`); `echo` also prints them to stderr.
    public init(enabled: Bool, echo: Bool = false) {
        enabledBox = NIOLockedValueBox(enabled)
        self.echo = echo
    }

    /// Whether events are written (config `journal.enabled`; follows reloads).
    public var enabled: Bool {
        get { enabledBox.withLockedValue { $0 } }
        set { enabledBox.withLockedValue { $0 = newValue } }
    }

    /// The fields every event carries to tell this instance apart (`InstanceLabels.journalFields`; follows
    /// reloads).
    public var identity: [(String, String)] {
        get { identityBox.withLockedValue { $0 } }
        set { identityBox.withLockedValue { $0 = newValue } }
    }

    /// Journal writes that failed since start.
    public var failures: UInt64 { failureCount.withLockedValue { $0 } }

    /// Says at start, once, that events go to stderr when there is no journal socket (a container, a host
    /// without systemd), instead of saying it at the first event.
    public func announce() {
        guard enabled, access(socketPath, W_OK) != 0 else { return }
        explain(-ENOENT)
    }

    /// Sends one event; never throws.
    public func send(_ entry: JournalEntry) {
        if echo { StandardError.write("pinguard: [\(entry.event.rawValue)] \(entry.message)", level: LogLevel(priority: entry.event.priority)) }
        guard enabled else { return }
        let lines = (entry.allFields + identity).map { "\($0.0)=\($0.1)" }
        // libsystemd drops the entry and returns 0 when the socket file is missing, so check for it first.
        let rc = access(socketPath, W_OK) == 0 ? Self.sendv(lines) : -ENOENT
        guard rc < 0 else {
            failing.withLockedValue { $0 = nil }
            return
        }
        failureCount.withLockedValue { $0 += 1 }
        explain(rc)
        // With echo on, the event is already on stderr.
        if !echo { StandardError.write("pinguard: [\(entry.event.rawValue)] \(entry.message)", level: LogLevel(priority: entry.event.priority)) }
    }

    /// One line per cause of failure: why, and that the events go to stderr from now on.
    private func explain(_ rc: Int32) {
        let cause = rc == -ENOENT ? "no journald socket at \(socketPath)" : "journal write failed (\(String(cString: strerror(-rc))))"
        let new = failing.withLockedValue { last -> Bool in
            defer { last = cause }
            return last != cause
        }
        if new { StandardError.write("pinguard: \(cause): journal events go to stderr instead (counted in pinguard_journal_write_failures_total)", level: .warn) }
    }

    /// Sends `FIELD=value` strings as one entry; returns sd_journal_sendv's result (negative errno on failure).
    static func sendv(_ lines: [String]) -> Int32 {
        var storage = lines.map { Array($0.utf8) }
        return storage.withUnsafeMutableBufferPointer { buffers -> Int32 in
            var iov = [iovec]()
            iov.reserveCapacity(buffers.count)
            for i in buffers.indices {
                buffers[i].withUnsafeMutableBytes { raw in
                    iov.append(iovec(iov_base: raw.baseAddress, iov_len: raw.count))
                }
            }
            // The pointers stay valid: `storage` is not mutated until the call returns.
            return sd_journal_sendv(iov, Int32(iov.count))
        }
    }
}
