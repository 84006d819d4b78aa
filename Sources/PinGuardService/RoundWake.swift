import Foundation
import NIOConcurrencyHelpers
import PinGuardCore

/// Lets a reload start the next round early: the scheduler waits for its due time or a wake, whichever
/// comes first. A wake while no one waits is kept for the next wait.
final class RoundWake: Sendable {
    private struct State {
        var pending = false
        var cancelled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let box = NIOLockedValueBox(State())

    /// Wakes the waiter, or the next one.
    func wake() {
        let waiter = box.withLockedValue { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiter else { s.pending = true; return nil }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Returns at `due` on `clock`, on a wake, or on cancellation. One waiter at a time.
    func wait(until due: Date, clock: any ServiceClock) async {
        if box.withLockedValue({ s -> Bool in defer { s.pending = false }; return s.pending }) { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: due) }
            group.addTask { await self.nextWake() }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextWake() async {
        box.withLockedValue { $0.cancelled = false }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = box.withLockedValue { s -> Bool in
                    if s.pending || s.cancelled {
                        s.pending = false
                        return true
                    }
                    s.waiter = c
                    return false
                }
                if now { c.resume() }
            }
        } onCancel: {
            let waiter = box.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                s.cancelled = true
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }
}
