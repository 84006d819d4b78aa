import NIOConcurrencyHelpers
import NIOCore

/// Counts failed basic-auth attempts per client address: past `limit` failures within `window`, that
/// address's further attempts are refused without running bcrypt until the window ends.
final class FailedLoginLimiter: Sendable {
    /// Failed attempts allowed per address and window.
    static let limit = 10
    /// How long failures are remembered.
    static let window = TimeAmount.seconds(60)
    /// Addresses remembered at most; beyond, expired entries are dropped, then all (a flood from many
    /// addresses must not grow the table without bound).
    static let maxAddresses = 4_096

    private struct Entry {
        var count: Int
        var since: NIODeadline
    }

    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    /// Whether `client` has used up its failures in the current window.
    func isBlocked(_ client: String, now: NIODeadline = .now()) -> Bool {
        entries.withLockedValue { e in
            guard let entry = e[client] else { return false }
            if now - entry.since > Self.window {
                e[client] = nil
                return false
            }
            return entry.count >= Self.limit
        }
    }

    /// Records a failed attempt of `client`.
    func recordFailure(_ client: String, now: NIODeadline = .now()) {
        entries.withLockedValue { e in
            if e.count >= Self.maxAddresses {
                e = e.filter { now - $0.value.since <= Self.window }
                if e.count >= Self.maxAddresses { e.removeAll() }
            }
            var entry = e[client] ?? Entry(count: 0, since: now)
            if now - entry.since > Self.window { entry = Entry(count: 0, since: now) }
            entry.count += 1
            e[client] = entry
        }
    }
}
