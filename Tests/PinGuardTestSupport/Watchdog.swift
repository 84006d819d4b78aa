import Foundation

/// A call that must return on its own, such as an `open(2)` that a FIFO with no writer would block for ever: it
/// runs on a thread of its own, and the test goes on (and fails) when it has not returned within a generous time.
/// The time is a safety net that only a hang reaches, never a measure of speed.
public enum Watchdog {
    /// `body`'s value; nil when it has not returned within `seconds` (the thread is then left blocked).
    public static func value<T>(within seconds: Double = 60, _ body: @escaping () -> T) -> T? {
        let run = WatchdogRun(body)
        Thread { run.finish() }.start()
        guard run.done.wait(timeout: .now() + seconds) == .success else { return nil }
        return run.value
    }
}

/// One watched call: its body, its value once it returned, and the signal that it did.
private final class WatchdogRun<T>: @unchecked Sendable {
    let body: () -> T
    var value: T?
    let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () -> T) { self.body = body }

    func finish() {
        value = body()
        done.signal()
    }
}
