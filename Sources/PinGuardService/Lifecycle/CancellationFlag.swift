import NIOConcurrencyHelpers

/// A flag set once from any thread: how a blocking probe on a pool thread learns its task was cancelled.
final class CancellationFlag: Sendable {
    private let box = NIOLockedValueBox(false)

    /// Whether `set()` was called.
    var isSet: Bool { box.withLockedValue { $0 } }

    /// Sets the flag.
    func set() { box.withLockedValue { $0 = true } }
}
