import Foundation

/// One log of a log list.
public struct CTLog: Sendable, Equatable {
    /// The log's ID, base64 (SHA-256 of `key`'s DER).
    public var logID: String
    /// The log's public key: base64 DER SubjectPublicKeyInfo.
    public var key: String
    /// The log's description, e.g. `Google 'Argon2026h1'`.
    public var description: String
    /// The operator's name, e.g. `Google`: SCTs from distinct operators are what the policies count.
    public var operatorName: String
    /// The log's state.
    public var state: CTLogState
    /// Since when the log has been in `state`.
    public var stateSince: Date?
    /// The interval of certificate expiry dates the log accepts (`temporal_interval`), if sharded.
    public var acceptsExpiryFrom: Date?
    /// The end (exclusive) of that interval.
    public var acceptsExpiryBefore: Date?
    /// Whether the log serves the static-ct-api (a tiled log) rather than RFC 6962.
    public var tiled: Bool

    /// Creates a log entry.
    public init(logID: String, key: String, description: String, operatorName: String, state: CTLogState,
                stateSince: Date? = nil, acceptsExpiryFrom: Date? = nil, acceptsExpiryBefore: Date? = nil, tiled: Bool = false) {
        self.logID = logID
        self.key = key
        self.description = description
        self.operatorName = operatorName
        self.state = state
        self.stateSince = stateSince
        self.acceptsExpiryFrom = acceptsExpiryFrom
        self.acceptsExpiryBefore = acceptsExpiryBefore
        self.tiled = tiled
    }
}
