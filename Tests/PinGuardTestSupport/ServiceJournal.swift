import Foundation

/// One journal entry as `journalctl -o json` prints it; binary and repeated fields are kept as their JSON text.
public struct JournalRecord: Sendable, CustomStringConvertible {
    /// Field name → value.
    public var fields: [String: String]

    /// The value of `name`, nil when the entry lacks it.
    public subscript(_ name: String) -> String? { fields[name] }

    /// `PINGUARD_EVENT`.
    public var event: String? { fields["PINGUARD_EVENT"] }

    public var description: String {
        fields.filter { $0.key.hasPrefix("PINGUARD_") || ["MESSAGE", "MESSAGE_ID", "PRIORITY"].contains($0.key) }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// Parses `journalctl -o json` output, one object per line; lines that are not objects are skipped.
    public static func parse(_ output: String) -> [JournalRecord] {
        output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            var fields: [String: String] = [:]
            for (k, v) in object {
                if let s = v as? String {
                    fields[k] = s
                } else if let data = try? JSONSerialization.data(withJSONObject: v, options: [.fragmentsAllowed]) {
                    fields[k] = String(decoding: data, as: UTF8.self)
                }
            }
            return JournalRecord(fields: fields)
        }
    }
}

extension Array where Element == JournalRecord {
    /// Entries whose `PINGUARD_EVENT` is `event` and whose fields include every pair of `matching`.
    public func events(_ event: String, _ matching: [String: String] = [:]) -> [JournalRecord] {
        filter { r in r.event == event && matching.allSatisfy { r[$0.key] == $0.value } }
    }
}
