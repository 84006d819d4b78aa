import Foundation
import PinGuardCore
import PinGuardReaders

/// The real clock: `Date()` and `Task.sleep`.
public struct WallClock: ServiceClock {
    /// Creates the wall clock.
    public init() {}

    /// The current time.
    public var now: Date { Date() }

    /// Sleeps until `deadline` (at once when it has passed).
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400 * 365) * 1e9))
    }
}
