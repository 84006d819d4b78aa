import Foundation

/// Waiting for something a real process or socket does: the condition is polled for a bounded time,
/// so a test fails with its own message instead of hanging.
public enum Polling {
    /// Polls `condition` every `interval` seconds for up to `seconds`; whether it held.
    public static func holds(within seconds: Double, every interval: Double = 0.01, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= end { return false }
            usleep(UInt32(interval * 1_000_000))
        }
        return true
    }
}
