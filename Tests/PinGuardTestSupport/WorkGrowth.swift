import Foundation

/// How the CPU time of some work grows with its input, where the code counts no work of its own: two sizes of
/// one input measured side by side on this thread, so that a bound on their ratio holds on a fast machine and
/// on a loaded one alike, where a bound in seconds holds on neither for sure.
///
/// The smaller size is repeated until it takes `floor` seconds of CPU (the larger as often), and each is the
/// least of `runs` alternating runs, so that timer resolution, page faults and cache misses do not decide the
/// ratio; time the thread spends waiting for a core is not CPU time, so a loaded machine does not count. Linear
/// work on four times the input costs about four times as much; quadratic work sixteen times.
public enum WorkGrowth {
    /// CPU seconds per run of each size, and their ratio.
    public struct Costs: Sendable, CustomStringConvertible {
        /// CPU seconds of one run of the smaller input.
        public var small: Double
        /// CPU seconds of one run of the larger input.
        public var large: Double
        /// How often each was repeated per measurement.
        public var repetitions: Int

        /// `large` over `small`.
        public var ratio: Double { large / max(small, 1e-9) }

        public var description: String {
            String(format: "%.5f s and %.5f s of CPU per run, a ratio of %.2f (%d repetitions)", small, large, ratio, repetitions)
        }
    }

    /// The CPU costs of `small` and `large` on this thread. A first run of `small` sets the repetitions (and is one
    /// of the runs when it alone takes `floor`; the only one, with one of `large`, when it takes ten times that).
    public static func costs(runs: Int = 2, floor: Double = 0.05, small: () -> Void, large: () -> Void) -> Costs {
        let once = CPUClock.measure(small).seconds
        let repetitions = once >= floor ? 1 : max(1, min(10_000, Int((floor / max(once, 1e-6)).rounded(.up))))
        var s = repetitions == 1 ? once : Double.infinity
        var l = Double.infinity
        for run in 0..<(once >= 10 * floor ? 1 : max(1, runs)) {
            if run > 0 || repetitions > 1 { s = min(s, CPUClock.measure { for _ in 0..<repetitions { small() } }.seconds) }
            l = min(l, CPUClock.measure { for _ in 0..<repetitions { large() } }.seconds)
        }
        return Costs(small: s / Double(repetitions), large: l / Double(repetitions), repetitions: repetitions)
    }

    /// The cheapest of up to `attempts` measurements (`costs`), stopping at the first whose ratio is below `bound`.
    /// A busy machine can stretch one measurement (another job evicting the caches, a burst of page faults), never
    /// every one of them; work that truly grows faster than the bound exceeds it in each.
    public static func costs(below bound: Double, attempts: Int = 3, small: () -> Void, large: () -> Void) -> Costs {
        var best = costs(small: small, large: large)
        for _ in 1..<max(1, attempts) where best.ratio >= bound {
            let again = costs(small: small, large: large)
            if again.ratio < best.ratio { best = again }
        }
        return best
    }
}
