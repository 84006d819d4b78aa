import Foundation
import PinGuardCore

/// SCT statuses written from many threads, one slot per verification.
final class SCTStatusSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[SCTStatus]]

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ i: Int, _ value: [SCTStatus]) { lock.withLock { slots[i] = value } }
    var values: [[SCTStatus]] { lock.withLock { slots } }
}
