import Foundation

/// Says each refused fetch once per host: a refusal repeats every round, and a log that repeats it says
/// nothing new. A host is said again after `forget()` (a configuration reload).
public final class RefusalNotices: @unchecked Sendable {
    private let lock = NSLock()
    private var told: Set<String> = []
    private let say: @Sendable (String) -> Void

    /// Notices that hand each first refusal of a host to `say`.
    public init(say: @escaping @Sendable (String) -> Void) {
        self.say = say
    }

    /// Records a refusal for `host`; says `reason` if this host was not refused before.
    public func note(host: String, reason: String) {
        lock.lock()
        let first = told.insert(host).inserted
        lock.unlock()
        if first { say("fetch refused: \(reason)") }
    }

    /// Forgets which hosts were told, so the next refusal of each is said again.
    public func forget() {
        lock.lock()
        told.removeAll()
        lock.unlock()
    }
}
