import Foundation

/// A settable time for the verification cache.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date()
    /// The time now; tests set it.
    var now: Date {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }
}
