import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto
#if canImport(Glibc)
import Glibc
#endif

/// A point in monotonic time by which an operation must be done.
struct Deadline {
    let end: DispatchTime
    let seconds: Double
    let cancelled: @Sendable () -> Bool

    init(seconds: Double, cancelled: @escaping @Sendable () -> Bool = { false }) {
        // Clamped to a day: callers validate durations, and a huge one must not overflow the clock.
        self.seconds = min(max(seconds, 0), 86_400)
        self.cancelled = cancelled
        end = DispatchTime.now() + .nanoseconds(Int(self.seconds * 1e9))
    }

    /// Milliseconds left, at least 0.
    var remainingMilliseconds: Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        guard end.uptimeNanoseconds > now else { return 0 }
        return Int32(min((end.uptimeNanoseconds - now) / 1_000_000, UInt64(Int32.max)))
    }
}
