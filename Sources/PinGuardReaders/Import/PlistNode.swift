import Foundation

/// A property-list value with the line it starts on (XML plists and JSON; nil for binary plists).
struct PlistNode {
    /// One dictionary entry, with the line of its key.
    struct Entry {
        var key: String
        var keyLine: Int?
        var value: PlistNode
    }

    /// The value kinds of a property list (and JSON).
    enum Value {
        case dictionary([Entry])
        case array([PlistNode])
        case string(String)
        case bool(Bool)
        case integer(Int)
        case real(Double)
        case date(Date)
        case data([UInt8])
        case null
    }

    var value: Value
    var line: Int?

    /// Entries when this is a dictionary.
    var entries: [Entry]? {
        if case .dictionary(let e) = value { return e }
        return nil
    }

    /// The entry for `key` when this is a dictionary.
    func entry(_ key: String) -> Entry? {
        entries?.first { $0.key == key }
    }

    /// The value for `key` when this is a dictionary.
    subscript(key: String) -> PlistNode? {
        entry(key)?.value
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    var array: [PlistNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// "a string", "a dictionary", … for findings.
    var kind: String {
        switch value {
        case .dictionary: return "a dictionary"
        case .array: return "an array"
        case .string: return "a string"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .real: return "a number"
        case .date: return "a date"
        case .data: return "data"
        case .null: return "null"
        }
    }
}
