import NIOConcurrencyHelpers

/// Slots for something clients hold (connections, responses in flight, /probe requests): at most `total` at
/// once, and at most `perClient` for one client address (0: no per-address cap), so that one address can
/// never hold every slot.
final class ClientSlots: Sendable {
    private struct Counts {
        var all = 0
        var byClient: [String: Int] = [:]
    }

    private let counts = NIOLockedValueBox(Counts())
    /// Slots in all.
    let total: Int
    /// Slots per client address; 0 for no cap.
    let perClient: Int

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Takes a slot for `client`; false when every slot, or that client's share, is in use.
    func take(client: String) -> Bool {
        counts.withLockedValue { c in
            let mine = c.byClient[client, default: 0]
            guard c.all < total, perClient == 0 || mine < perClient else { return false }
            c.all += 1
            c.byClient[client] = mine + 1
            return true
        }
    }

    /// Gives back a slot `take(client:)` granted; an address's entry is dropped at zero, so the table does not
    /// grow with every address ever seen.
    func give(client: String) {
        counts.withLockedValue { c in
            c.all -= 1
            let left = c.byClient[client, default: 1] - 1
            c.byClient[client] = left > 0 ? left : nil
        }
    }
}
