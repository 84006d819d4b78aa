import Foundation
import PinGuardCore
import PinGuardCrypto

/// Results of probes running on several threads at once, one slot per address.
final class NodeSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ProbeFacts?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores the probe of address `i`.
    func set(_ i: Int, _ facts: ProbeFacts) {
        lock.lock()
        slots[i] = facts
        lock.unlock()
    }

    /// Every stored probe, in address order.
    var values: [ProbeFacts] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
