import Foundation
import PinGuardCore

/// Runs a round per interval, counted from the start of each round, until its task is cancelled; a reload
/// starts the next round early. The first round runs in one burst, later ones spread over the interval.
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
            due = started.addingTimeInterval(runtime.configuration.config.interval)
            await runtime.waitForNextRound(until: due)
            // A reload starts the next round early: it is not late.
            due = min(due, runtime.clock.now)
        }
    }
}
