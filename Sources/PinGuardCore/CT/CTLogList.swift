import Foundation

/// A published log list (Apple's or Chrome's), as read from its JSON.
public struct CTLogList: Sendable, Equatable {
    /// Which list this is.
    public var name: CTLogListName
    /// The list's own version string.
    public var version: String
    /// `log_list_timestamp`: when the list was published.
    public var timestamp: Date
    /// Its logs, RFC 6962 and tiled.
    public var logs: [CTLog]
    /// The file it was read from, or `bundled`.
    public var origin: String

    /// Creates a log list.
    public init(name: CTLogListName, version: String, timestamp: Date, logs: [CTLog], origin: String) {
        self.name = name
        self.version = version
        self.timestamp = timestamp
        self.logs = logs
        self.origin = origin
    }

    /// Days after its timestamp at which a list counts as stale: Chrome stops enforcing CT when its copy of
    /// the list is older than 70 days.
    public static let staleAfterDays = 70.0

    /// Whether the list is older than `staleAfterDays` at `now`.
    public func isStale(at now: Date) -> Bool {
        now.timeIntervalSince(timestamp) > CTLogList.staleAfterDays * 86_400
    }

    /// The log with `logID`, if listed.
    public func log(id logID: String) -> CTLog? { logs.first { $0.logID == logID } }
}
