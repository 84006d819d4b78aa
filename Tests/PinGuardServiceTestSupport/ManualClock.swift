import Foundation
import NIOConcurrencyHelpers
import PinGuardService

/// A clock that moves only when the test says so: sleepers wake when `advance` passes their deadline.
public final class ManualClock: ServiceClock {
    private struct Sleeper {
        let id: Int
        let deadline: Date
        let continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    private let box: NIOLockedValueBox<State>

    /// Creates the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        box = NIOLockedValueBox(State(now: start))
    }

    /// The current test time.
    public var now: Date { box.withLockedValue { $0.now } }

    /// Number of tasks sleeping on this clock.
    public var sleeping: Int { box.withLockedValue { $0.sleepers.count } }

    /// Deadlines of the sleeping tasks, earliest first.
    public var deadlines: [Date] { box.withLockedValue { $0.sleepers.map(\.deadline).sorted() } }

    /// Suspends until the clock reaches `deadline`.
    public func sleep(until deadline: Date) async throws {
        let id = box.withLockedValue { s -> Int in s.nextID += 1; return s.nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                let outcome = box.withLockedValue { s -> Result<Void, Error>? in
                    if s.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: c))
                    return nil
                }
                if let outcome { c.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = box.withLockedValue { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else {
                    s.cancelled.insert(id)
                    return nil
                }
                return s.sleepers.remove(at: i)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `seconds` and wakes every sleeper whose deadline has come.
    public func advance(by seconds: Double) {
        let due = box.withLockedValue { s -> [Sleeper] in
            s.now = s.now.addingTimeInterval(seconds)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for s in due { s.continuation.resume() }
    }

    /// Waits (yielding, never on the wall clock's say-so) until at least `count` tasks sleep on this clock;
    /// fails after `attempts` checks so a broken scheduler cannot hang the test run.
    public func waitForSleepers(_ count: Int = 1, attempts: Int = 20_000) async throws {
        for _ in 0..<attempts {
            if sleeping >= count { return }
            await Task.yield()
            try await Task.sleep(nanoseconds: 100_000)
        }
        throw ManualClockError("fewer than \(count) sleepers after \(attempts) checks (now \(sleeping))")
    }
}

/// A test clock expectation that did not come true.
public struct ManualClockError: Error, CustomStringConvertible {
    /// What was expected.
    public let description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
