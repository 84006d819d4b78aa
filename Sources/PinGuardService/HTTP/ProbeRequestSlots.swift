import NIOConcurrencyHelpers

/// Bounds the `GET /probe` requests in progress: in total, and per client address, so that one address
/// can never hold every slot while requests from others wait.
final class ProbeRequestSlots: Sendable {
    /// Requests in progress at once, from every client together.
    static let total = 16
    /// Requests in progress at once from one client address.
    static let perClient = 4

    private struct Counts {
        var all = 0
        var byClient: [String: Int] = [:]
    }

    private let counts = NIOLockedValueBox(Counts())

    /// Takes a slot for `client`; false when the total or that client's share is in use.
    func take(client: String) -> Bool {
        counts.withLockedValue { c in
            let mine = c.byClient[client, default: 0]
            guard c.all < Self.total, mine < Self.perClient else { return false }
            c.all += 1
            c.byClient[client] = mine + 1
            return true
        }
    }

    /// Gives back a slot `take(client:)` granted.
    func give(client: String) {
        counts.withLockedValue { c in
            c.all -= 1
            let left = c.byClient[client, default: 1] - 1
            c.byClient[client] = left > 0 ? left : nil
        }
    }
}
