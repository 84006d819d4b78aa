import CSystemd
import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// Writes journal events through libsystemd's native protocol (`sd_journal_sendv`).
///
/// Without a journal socket (or with the journal full) the service keeps running: the failure is counted
/// and the event is logged to stderr instead, so nothing is lost silently.
public final class JournalSink: Sendable {
    private let enabledBox: NIOLockedValueBox<Bool>
    private let failureCount = NIOLockedValueBox<UInt64>(0)
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

    /// Journal writes that failed since start.
    public var failures: UInt64 { failureCount.withLockedValue { $0 } }

    /// Sends one event; never throws.
    public func send(_ entry: JournalEntry) {
        if echo { StandardError.write("pinguard: [\(entry.event.rawValue)] \(entry.message)") }
        // With echo on, a failed write is already visible on stderr; it is still counted.
        guard enabled else { return }
        let lines = entry.allFields.map { "\($0.0)=\($0.1)" }
        // libsystemd drops the entry and returns 0 when the socket file is missing, so check for it first.
        let rc = access(socketPath, W_OK) == 0 ? Self.sendv(lines) : -ENOENT
        if rc < 0 {
            let count = failureCount.withLockedValue { v -> UInt64 in v += 1; return v }
            if !echo && (count <= 5 || count % 1000 == 0) {
                StandardError.write("pinguard: journal write failed (\(String(cString: strerror(-rc))), \(count) so far): [\(entry.event.rawValue)] \(entry.message)")
            }
        }
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
