import Foundation
import PinGuardCore

/// Log lists in Chrome's v3 schema (`log_list.json`, which Apple's `current_log_list.json` follows) that
/// name test logs.
public enum TestLogListJSON {
    /// The JSON text of a list published at `timestamp`, operators in order of first appearance.
    public static func make(version: String = "1.0", timestamp: Date, entries: [TestLogListEntry]) -> String {
        var operators: [String] = []
        var logs: [String: [[String: Any]]] = [:]
        for entry in entries {
            if logs[entry.operatorName] == nil { operators.append(entry.operatorName) }
            logs[entry.operatorName, default: []].append(log(entry))
        }
        let document: [String: Any] = [
            "version": version,
            "log_list_timestamp": rfc3339(timestamp),
            "operators": operators.map { ["name": $0, "email": ["ct@\($0.lowercased().filter(\.isLetter)).test"],
                                          "logs": logs[$0] ?? [], "tiled_logs": [[String: Any]]()] as [String: Any] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes the list to `path`.
    public static func write(to path: String, version: String = "1.0", timestamp: Date, entries: [TestLogListEntry]) throws {
        try make(version: version, timestamp: timestamp, entries: entries).write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func log(_ entry: TestLogListEntry) -> [String: Any] {
        var state: [String: Any] = ["timestamp": rfc3339(entry.stateSince)]
        if entry.state == .readonly {
            // The schema requires the tree head a read-only log froze at.
            state["final_tree_head"] = ["sha256_root_hash": Base64.encode([UInt8](repeating: 0, count: 32)), "tree_size": 0]
        }
        var log: [String: Any] = [
            "description": entry.log.name,
            "log_id": entry.log.logIDBase64,
            "key": entry.log.keyBase64,
            "url": "https://\(entry.log.name.lowercased().filter { $0.isLetter || $0.isNumber }).ct.test/",
            "mmd": 86_400,
            "state": [entry.state.rawValue: state],
        ]
        if let interval = entry.temporalInterval {
            log["temporal_interval"] = ["start_inclusive": rfc3339(interval.start), "end_exclusive": rfc3339(interval.end)]
        }
        return log
    }

    private static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
