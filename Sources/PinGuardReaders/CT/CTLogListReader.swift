import Foundation
import PinGuardCore

/// Reads a published Certificate Transparency log list: Chrome's v3 `log_list.json` (or its superset
/// `all_logs_list.json`) or Apple's `current_log_list.json` (schema v5). Both hold `version` and
/// `operators[]`, each with a `name`, `logs[]` (RFC 6962) and `tiled_logs[]` (static-ct-api) of the same
/// shape. Chrome's list carries `log_list_timestamp`; Apple's carries none, so it is dated by the latest
/// state change it records (each change bumps the list's version, so that is when this version was made).
///
/// An error names the list (`origin`) and the first entry that does not read: `operators[2].logs[1]: no "key"`.
public enum CTLogListReader {
    /// The largest list read: 4 MiB (Apple's, the larger of the two, is about 150 KB).
    public static let maxBytes = 4 << 20

    /// The list `name` in `bytes`, read from `origin` (a path, or `bundled`).
    public static func parse(_ bytes: [UInt8], name: CTLogListName, origin: String) throws(ConfigError) -> CTLogList {
        func fail(_ key: String?, _ message: String) -> ConfigError { ConfigError(file: origin, line: nil, key: key, message: message) }
        guard bytes.count <= maxBytes else { throw fail(nil, "larger than \(maxBytes) bytes") }
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) else { throw fail(nil, "not JSON") }
        do throws(CTLogListFault) {
            let list = try CTJSONFields(root, at: nil)
            let version = try list.string("version")
            let logs = try readOperators(list)
            let timestamp = try listTimestamp(list, name: name, logs: logs)
            return CTLogList(name: name, version: version, timestamp: timestamp, logs: logs, origin: origin)
        } catch {
            throw fail(error.key, error.message)
        }
    }

    /// Every operator's logs, RFC 6962 then tiled, in list order; a log ID listed twice is refused, since an
    /// SCT names its log by ID alone.
    static func readOperators(_ list: CTJSONFields) throws(CTLogListFault) -> [CTLog] {
        guard list.has("operators") else { throw list.fault("no \"operators\"") }
        var logs: [CTLog] = []
        var seen: [String: String] = [:]
        for (i, value) in try list.array("operators").enumerated() {
            let path = "operators[\(i)]"
            let op = try CTJSONFields(value, at: path)
            let operatorName = try op.string("name")
            for (field, tiled) in [("logs", false), ("tiled_logs", true)] {
                for (j, entry) in try op.array(field).enumerated() {
                    let at = "\(path).\(field)[\(j)]"
                    guard let log = try CTLogEntryReader.read(entry, at: at, operatorName: operatorName, tiled: tiled) else { continue }
                    if let first = seen[log.logID] { throw CTLogListFault(key: at, message: "\"log_id\" is listed already, at \(first)") }
                    seen[log.logID] = at
                    logs.append(log)
                }
            }
        }
        return logs
    }

    /// `log_list_timestamp`; for Apple's list, which has none, the latest state change among its logs.
    static func listTimestamp(_ list: CTJSONFields, name: CTLogListName, logs: [CTLog]) throws(CTLogListFault) -> Date {
        if list.has("log_list_timestamp") || name == .chrome { return try list.time("log_list_timestamp") }
        guard let latest = logs.compactMap(\.stateSince).max() else {
            throw list.fault("no \"log_list_timestamp\", and no log state to date the list by")
        }
        return latest
    }
}
