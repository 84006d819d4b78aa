import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread has used: what `WorkGrowth` compares between two sizes of an input, since wall
/// time on a shared machine also counts the work of every other process. Never bounded in seconds by a test.
public enum CPUClock {
    /// CPU seconds of the calling thread so far.
    public static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// `body`'s value and the CPU seconds the calling thread spent in it.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = threadSeconds()
        let value = try body()
        return (value, threadSeconds() - start)
    }
}
