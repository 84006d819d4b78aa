import Foundation

/// Where the service gets the time and how it waits: the wall clock in production, a clock the test
/// advances by hand in tests, so schedules and reloads are tested in-process without sleeping.
public protocol ServiceClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Returns once `now` has reached `deadline`; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension ServiceClock {
    /// Sleeps for `seconds` from now.
    public func sleep(seconds: Double) async throws {
        try await sleep(until: now.addingTimeInterval(seconds))
    }
}
