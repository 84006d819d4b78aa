import Foundation
import PinGuardCore

/// Reads one entry of `operators[].logs[]` (RFC 6962) or `operators[].tiled_logs[]` (static-ct-api): the
/// fields both schemas share (`description`, `log_id`, `key`, `state`, `temporal_interval`); the URLs, `mmd`,
/// Apple's `tls_only` and the readonly `final_tree_head` play no part in judging SCTs and are not read.
enum CTLogEntryReader {
    /// Bytes in a log ID: a SHA-256 digest (RFC 6962 §3.2).
    static let logIDLength = 32
    /// Bounds on a log key's DER: P-256 keys are 91 bytes, RSA-2048 keys 294; 4 KiB holds RSA-16384.
    static let keyLengths = 32...4_096

    /// The log at `path`, or nil when the entry has no `state`: Chrome's `all_logs_list.json` lists logs it has
    /// not admitted that way, and an SCT from such a log counts for nothing, as from a log not listed.
    static func read(_ value: Any, at path: String, operatorName: String, tiled: Bool) throws(CTLogListFault) -> CTLog? {
        let entry = try CTJSONFields(value, at: path)
        let description = try entry.optionalString("description") ?? ""
        let logID = try entry.base64("log_id")
        guard logID.count == logIDLength else { throw entry.fault("\"log_id\" is \(logID.count) bytes, not \(logIDLength)") }
        // Foundation has no SHA-256 on Linux, so the key is not hashed against the ID; it must at least be DER
        // (a SEQUENCE) of a plausible size.
        let key = try entry.base64("key")
        guard keyLengths.contains(key.count), key.first == 0x30 else { throw entry.fault("\"key\" is not a DER public key") }
        guard entry.has("state") else { return nil }
        let (state, since) = try readState(entry.object["state"] as Any, at: path)
        let interval = try readInterval(entry)
        return CTLog(logID: Base64.encode(logID), key: Base64.encode(key), description: description, operatorName: operatorName,
                     state: state, stateSince: since, acceptsExpiryFrom: interval?.from, acceptsExpiryBefore: interval?.before, tiled: tiled)
    }

    /// `state`: an object with exactly one key, a known state, whose value has a `timestamp`.
    static func readState(_ value: Any, at path: String) throws(CTLogListFault) -> (CTLogState, Date) {
        guard let object = value as? [String: Any] else { throw CTLogListFault(key: path, message: "\"state\" is not a JSON object") }
        guard object.count == 1, let (name, detail) = object.first.map({ ($0.key, $0.value) }) else {
            throw CTLogListFault(key: path, message: "\"state\" has \(object.count) states, not one")
        }
        guard let state = CTLogState(rawValue: name) else {
            throw CTLogListFault(key: path, message: "unknown state \(EchoedInput.quoted(name, limit: 40))")
        }
        guard let fields = detail as? [String: Any] else { throw CTLogListFault(key: path, message: "\"state.\(name)\" is not a JSON object") }
        let since = try CTJSONFields(object: fields, path: path).time("timestamp", label: "state.\(name).timestamp")
        return (state, since)
    }

    /// `temporal_interval`, when the log is sharded by certificate expiry.
    static func readInterval(_ entry: CTJSONFields) throws(CTLogListFault) -> (from: Date, before: Date)? {
        guard entry.has("temporal_interval") else { return nil }
        guard let fields = entry.object["temporal_interval"] as? [String: Any] else { throw entry.fault("\"temporal_interval\" is not a JSON object") }
        let interval = CTJSONFields(object: fields, path: entry.path)
        let from = try interval.time("start_inclusive", label: "temporal_interval.start_inclusive")
        let before = try interval.time("end_exclusive", label: "temporal_interval.end_exclusive")
        guard from < before else { throw entry.fault("\"temporal_interval\" ends before it starts") }
        return (from, before)
    }
}
