import Foundation
import PinGuardCore
import PinGuardReaders

/// Runs a round per interval, counted from the start of each round, until its task is cancelled. A reload
/// wakes it for a catch-up (`PinGuardRuntime.catchUp()`: only the targets with no result, or that a round
/// cut short did not reach) and the next full round stays due one interval after the last one started.
/// The first round runs in one burst, later ones spread over the interval.
public struct RoundScheduler: Sendable {
    let runtime: PinGuardRuntime

    /// Creates the scheduler of `runtime`.
    public init(runtime: PinGuardRuntime) { self.runtime = runtime }

    /// Loops rounds until cancelled.
    public func run() async {
        var first = true
        var due = runtime.clock.now
        while !Task.isCancelled {
            let started = runtime.clock.now
            _ = await runtime.runRound(spread: !first, due: due)
            first = false
            while !Task.isCancelled {
                // The interval in force, which a reload may have changed.
                due = started.addingTimeInterval(runtime.configuration.config.interval)
                guard await runtime.waitForNextRound(until: due), runtime.clock.now < due else { break }
                _ = await runtime.catchUp()
            }
        }
    }
}
