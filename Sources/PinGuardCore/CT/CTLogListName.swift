/// The two published log lists pinguard knows (`ct.log_lists` keys).
public enum CTLogListName: String, Sendable, Codable, CaseIterable {
    /// Apple's `current_log_list.json`.
    case apple
    /// Chrome's v3 `log_list.json`, also read by Android.
    case chrome
}
