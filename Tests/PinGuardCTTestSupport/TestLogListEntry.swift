import Foundation
import PinGuardCore

/// One log as a test log list names it: the log, its operator, its state and since when.
public struct TestLogListEntry: Sendable {
    /// The log.
    public var log: TestCTLog
    /// The operator's name; logs with the same name are grouped under one operator.
    public var operatorName: String
    /// The log's state.
    public var state: CTLogState
    /// The state's timestamp.
    public var stateSince: Date
    /// The accepted expiry interval (`temporal_interval`), start inclusive, end exclusive; nil for none.
    public var temporalInterval: (start: Date, end: Date)?

    /// An entry; by default usable since 2024-01-01.
    public init(log: TestCTLog, operatorName: String, state: CTLogState = .usable,
                stateSince: Date = Date(timeIntervalSince1970: 1_704_067_200), temporalInterval: (start: Date, end: Date)? = nil) {
        self.log = log
        self.operatorName = operatorName
        self.state = state
        self.stateSince = stateSince
        self.temporalInterval = temporalInterval
    }
}
