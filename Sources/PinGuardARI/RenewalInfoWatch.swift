import Foundation
import PinGuardCore

/// One certificate whose renewal window is watched: its RFC 9773 identifier and its CA's ACME directory.
public struct WatchedCertificate: Sendable, Hashable {
    /// The certificate identifier (`RenewalInfoID`).
    public var certID: String
    /// The ACME directory URL of the CA that issued it.
    public var directory: String

    /// Creates a watched certificate.
    public init(certID: String, directory: String) {
        self.certID = certID
        self.directory = directory
    }
}

/// The renewal windows of the certificates served now, each checked on its own schedule, off the probe path.
///
/// A certificate served by many targets is checked once (entries are keyed by its identifier); one no
/// longer served is forgotten at the next `track`, so its checks stop. All methods may be called from any
/// thread; `checkDue` runs the due checks one after another.
public final class RenewalInfoWatch: @unchecked Sendable {
    /// What is known of one certificate.
    public struct Status: Sendable, Equatable {
        /// The certificate's CA directory.
        public var directory: String
        /// The CA's window; nil before the first answer, after a 404, or when the CA offers none.
        public var window: RenewalWindow?
        /// When it is checked next.
        public var recheck: Date
        /// Checks that failed in a row.
        public var failures: Int
        /// The last failure, while failing.
        public var lastError: String?
    }

    private let lock = NSLock()
    private var statuses: [String: Status] = [:]
    private var client: RenewalInfoClient?

    /// A watch asking through `client`; without one it tracks but asks nothing.
    public init(client: RenewalInfoClient?) {
        self.client = client
    }

    /// Asks through `client` from now on (new fetch settings).
    public func use(_ client: RenewalInfoClient?) {
        lock.lock()
        defer { lock.unlock() }
        self.client = client
    }

    /// Sets the certificates served now: new ones are due at once, gone ones are forgotten.
    public func track(_ certificates: Set<WatchedCertificate>) {
        lock.lock()
        defer { lock.unlock() }
        let wanted = Dictionary(certificates.map { ($0.certID, $0.directory) }, uniquingKeysWith: { a, _ in a })
        statuses = statuses.filter { wanted[$0.key] == $0.value.directory }
        for (id, directory) in wanted where statuses[id] == nil {
            statuses[id] = Status(directory: directory, window: nil, recheck: .distantPast, failures: 0)
        }
    }

    /// Checks every tracked certificate due at `now`; returns the identifiers whose window changed.
    @discardableResult
    public func checkDue(now: Date) async -> [String] {
        var changed: [String] = []
        guard let client = currentClient else { return [] }
        for (id, status) in due(now) {
            let answer = await client.check(certID: id, directory: status.directory, failures: status.failures, now: now)
            if record(answer, for: id, directory: status.directory) { changed.append(id) }
        }
        return changed.sorted()
    }

    /// What is known of certificate `certID`; nil when it is not tracked.
    public func status(certID: String) -> Status? {
        lock.lock()
        defer { lock.unlock() }
        return statuses[certID]
    }

    /// The window of certificate `certID`, when one is known.
    public func window(certID: String) -> RenewalWindow? { status(certID: certID)?.window }

    /// The earliest time a tracked certificate is due; nil when none is tracked.
    public var nextDue: Date? {
        lock.lock()
        defer { lock.unlock() }
        return statuses.values.map(\.recheck).min()
    }

    private var currentClient: RenewalInfoClient? {
        lock.lock()
        defer { lock.unlock() }
        return client
    }

    private func due(_ now: Date) -> [(String, Status)] {
        lock.lock()
        defer { lock.unlock() }
        return statuses.filter { $0.value.recheck <= now }.sorted { $0.key < $1.key }
    }

    /// Records an answer for a certificate still tracked with the same directory; true when its window changed.
    private func record(_ answer: RenewalInfoAnswer, for id: String, directory: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard var status = statuses[id], status.directory == directory else { return false }
        let before = status.window
        switch answer {
        case .window(let window, let recheck):
            (status.window, status.recheck, status.failures, status.lastError) = (window, recheck, 0, nil)
        case .none(let recheck):
            (status.window, status.recheck, status.failures, status.lastError) = (nil, recheck, 0, nil)
        case .failed(let reason, let recheck):
            (status.recheck, status.failures, status.lastError) = (recheck, status.failures + 1, reason)
        }
        statuses[id] = status
        return status.window != before
    }
}
