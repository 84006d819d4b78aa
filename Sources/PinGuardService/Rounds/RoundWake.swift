import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// Lets a reload ask for a catch-up at once: the scheduler waits for its due time or a wake, whichever
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

    /// Returns at `due` on `clock` (false), on a wake (true), or on cancellation. One waiter at a time.
    func wait(until due: Date, clock: any ServiceClock) async -> Bool {
        if box.withLockedValue({ s -> Bool in defer { s.pending = false }; return s.pending }) { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { try? await clock.sleep(until: due); return false }
            group.addTask { await self.nextWake(); return true }
            defer { group.cancelAll() }
            return await group.next() ?? false
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
