import Foundation
import PinGuardCore

/// Typed reads of one JSON object's fields for the log list reader, each failing with a message that names
/// the field (and quotes, cut short, a value that does not read).
struct CTJSONFields {
    /// The object's fields, as `JSONSerialization` returns them.
    let object: [String: Any]
    /// Where the object is, for faults.
    let path: String?

    /// `value` as an object at `path`, or a fault saying it is not one.
    init(_ value: Any, at path: String?) throws(CTLogListFault) {
        guard let object = value as? [String: Any] else { throw CTLogListFault(key: path, message: "not a JSON object") }
        self.object = object
        self.path = path
    }

    /// An object already known to be one.
    init(object: [String: Any], path: String?) {
        self.object = object
        self.path = path
    }

    /// A fault at this object's path.
    func fault(_ message: String) -> CTLogListFault { CTLogListFault(key: path, message: message) }

    /// Whether the field is present (JSON `null` counts as absent). The type is compared, not cast: a cast
    /// of a string, array or object to `NSNull` bridges the whole value to Foundation first.
    func has(_ field: String) -> Bool {
        guard let value = object[field] else { return false }
        return type(of: value) != NSNull.self
    }

    /// A string field that must be present.
    func string(_ field: String) throws(CTLogListFault) -> String {
        guard has(field) else { throw fault("no \"\(field)\"") }
        guard let s = object[field] as? String else { throw fault("\"\(field)\" is not a string") }
        return s
    }

    /// A string field that may be absent.
    func optionalString(_ field: String) throws(CTLogListFault) -> String? {
        has(field) ? try string(field) : nil
    }

    /// An RFC 3339 time that must be present; `label` names it in faults when it is nested (`state.usable.timestamp`).
    func time(_ field: String, label: String? = nil) throws(CTLogListFault) -> Date {
        let name = label ?? field
        guard has(field) else { throw fault("no \"\(name)\"") }
        guard let text = object[field] as? String else { throw fault("\"\(name)\" is not a string") }
        guard let date = RFC3339.parse(text) else { throw fault("\"\(name)\" is not an RFC 3339 time: \(EchoedInput.quoted(text, limit: 80))") }
        return date
    }

    /// An array field; an absent one is empty (older lists have no `tiled_logs`).
    func array(_ field: String) throws(CTLogListFault) -> [Any] {
        guard has(field) else { return [] }
        guard let a = object[field] as? [Any] else { throw fault("\"\(field)\" is not an array") }
        return a
    }

    /// A field holding standard padded base64, decoded.
    func base64(_ field: String) throws(CTLogListFault) -> [UInt8] {
        let text = try string(field)
        guard let bytes = Base64.decode(text) else { throw fault("\"\(field)\" is not base64: \(EchoedInput.quoted(text, limit: 80))") }
        return bytes
    }
}
