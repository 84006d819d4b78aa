import Foundation

/// Whether a list that was fetched, verified and read may replace the list in force: never an older one (a
/// replayed or rolled-back copy would bring back logs since retired, or drop logs since added).
public enum CTLogListAdmission: Sendable, Equatable {
    /// Put it in force: it is as new as the one held, or newer.
    case take
    /// Keep the list held; the reason names both dates.
    case refuse(String)

    /// The admission of `candidate` while `held` is in force.
    public static func judge(_ candidate: CTLogList, held: CTLogList?) -> CTLogListAdmission {
        guard let held, candidate.timestamp < held.timestamp else { return .take }
        return .refuse("it is older (\(RFC3339.format(candidate.timestamp))) than the list in force (\(RFC3339.format(held.timestamp)))")
    }
}
