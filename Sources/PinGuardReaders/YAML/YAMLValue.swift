import Foundation
import PinGuardCore

/// A YAML node with its file and key path, read strictly: wrong types and unknown keys are errors.
public struct YAMLValue {
    /// The document the node belongs to, and its row.
    let document: YAMLDocument
    let index: Int
    /// File name, for errors.
    public let file: String
    /// The parent's key path and the step from it to this node: the path is made only when asked for
    /// (a 100,000-target file has 400,000 values, and their paths are shown only in errors).
    private let parentPath: String
    private let step: Step

    private enum Step {
        case root
        case key(String)
        case item(Int)
    }

    /// Dotted key path, for errors (`targets[3].host`).
    public var path: String {
        switch step {
        case .root: return parentPath
        case .key(let key): return YAMLValue.keyPath(parentPath, key)
        case .item(let i): return "\(parentPath)[\(i)]"
        }
    }

    /// Parses a whole document within `limits`; an empty document is an error naming the file.
    ///
    /// One pass over libyaml's events (`YAMLPreflight`) checks size, depth, node count, no anchors or
    /// aliases, no repeated keys, and describes syntax errors without echoing the input, while
    /// `YAMLTreeBuilder` builds the document, so it is at most `limits.maxNodes` nodes. Plain scalars are
    /// text: `int()`, `bool()` and `isNull` decide on the text and its style themselves, as pinguard did
    /// with Yams' basic resolver; a tag (`!!str`) changes nothing.
    public static func parse(_ text: String, file: String, limits: YAMLLimits = .standard) throws(ConfigError) -> YAMLValue {
        var builder = YAMLTreeBuilder()
        try YAMLPreflight.check(text, file: file, limits: limits, into: &builder)
        switch builder.refusal {
        case .anotherDocument(let line):
            throw ConfigError(file: file, line: line, key: nil,
                              message: "not valid YAML: expected a single document in the stream: but found another document")
        case .duplicateKeys(let keys, let line):
            let shown = keys.sorted().prefix(3).map { EchoedInput.quoted($0, limit: 60) }.joined(separator: ", ")
            throw ConfigError(file: file, line: line, key: nil, message: "duplicate key \(shown)")
        case nil:
            break
        }
        guard let document = builder.document() else {
            throw ConfigError(file: file, line: 1, key: nil, message: "the document is empty")
        }
        return YAMLValue(document: document, index: 0, file: file, parentPath: "", step: .root)
    }

    /// 1-based line of this node.
    public var line: Int? { Int(document.nodes[index].line) }

    /// An error at this node.
    public func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: line, key: path.isEmpty ? nil : path, message: message)
    }

    func child(_ node: Int, _ key: String, parentPath: String) -> YAMLValue {
        YAMLValue(document: document, index: node, file: file, parentPath: parentPath, step: .key(key))
    }

    private var nodeKind: YAMLDocument.Kind { document.nodes[index].kind }

    /// The text of a plain (unquoted, not block) scalar; nil for any other node.
    private var plainText: String? { nodeKind == .plainScalar ? document.string(index) : nil }

    /// Whether this node is YAML null (`~`, `null`, or empty).
    public var isNull: Bool {
        guard let text = plainText else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// Reads a mapping, rejecting keys not in `allowed` and duplicate keys.
    public func mapping(allowed: Set<String>) throws(ConfigError) -> [String: YAMLValue] {
        guard nodeKind == .mapping else { throw error("expected a mapping, found \(kind)") }
        let items = document.children(of: index)
        let path = self.path
        var out: [String: YAMLValue] = Dictionary(minimumCapacity: items.count / 2)
        for i in stride(from: items.startIndex, to: items.endIndex, by: 2) {
            let k = items[i]
            guard document.isScalar(k) else { throw error("a mapping key must be a string") }
            let key = document.string(k)
            guard allowed.contains(key) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw ConfigError(file: file, line: Int(document.nodes[k].line), key: YAMLValue.keyPath(path, key),
                                  message: "unknown key (known keys: \(known))")
            }
            guard out[key] == nil else {
                throw ConfigError(file: file, line: Int(document.nodes[k].line), key: YAMLValue.keyPath(path, key),
                                  message: "duplicate key \(EchoedInput.quoted(key))")
            }
            out[key] = child(items[i + 1], key, parentPath: path)
        }
        return out
    }

    /// Reads a mapping with arbitrary string keys, in document order (e.g. environments).
    public func entries() throws(ConfigError) -> [(key: String, value: YAMLValue)] {
        guard nodeKind == .mapping else { throw error("expected a mapping, found \(kind)") }
        let items = document.children(of: index)
        let path = self.path
        var seen = Set<String>()
        var out: [(String, YAMLValue)] = []
        for i in stride(from: items.startIndex, to: items.endIndex, by: 2) {
            let k = items[i]
            guard document.isScalar(k) else { throw error("a mapping key must be a string") }
            let key = document.string(k)
            guard seen.insert(key).inserted else {
                throw ConfigError(file: file, line: Int(document.nodes[k].line), key: YAMLValue.keyPath(path, key),
                                  message: "duplicate key \(EchoedInput.quoted(key))")
            }
            out.append((key, child(items[i + 1], key, parentPath: path)))
        }
        return out
    }

    /// Whether this node is a sequence.
    public var isSequence: Bool { nodeKind == .sequence }

    /// Reads a sequence.
    public func sequence() throws(ConfigError) -> [YAMLValue] {
        guard nodeKind == .sequence else { throw error("expected a list, found \(kind)") }
        let path = self.path
        return document.children(of: index).enumerated().map { i, n in
            YAMLValue(document: document, index: n, file: file, parentPath: path, step: .item(i))
        }
    }

    /// Reads a scalar as a string (any scalar; quoted or not).
    public func string() throws(ConfigError) -> String {
        guard document.isScalar(index) else { throw error("expected a string, found \(kind)") }
        return document.string(index)
    }

    /// Reads a non-empty string.
    public func nonEmptyString() throws(ConfigError) -> String {
        let s = try string()
        // Scalar by scalar, not through NSString: a 100,000-target configuration reads 300,000 of these. In
        // ASCII, `CharacterSet.whitespaces` is space and tab, and asking it costs more than the rest.
        guard s.unicodeScalars.contains(where: { $0.isASCII ? $0 != " " && $0 != "\t" : !CharacterSet.whitespaces.contains($0) }) else {
            throw error("must not be empty")
        }
        return s
    }

    /// Reads an integer within `range`.
    public func int(in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let text = plainText, let v = Int(text) else {
            throw error("expected an integer, found \(kindOrValue)")
        }
        guard range.contains(v) else { throw error("\(v) is out of range \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// Reads a boolean (`true` / `false`).
    public func bool() throws(ConfigError) -> Bool {
        if let text = plainText {
            switch text {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        throw error("expected true or false, found \(kindOrValue)")
    }

    /// Reads a Prometheus-style duration (`30s`, `5m`, `1h30m`) as seconds, at most `max`.
    public func duration(max: Double) throws(ConfigError) -> Double {
        let s = try string()
        guard let v = PromDuration.parse(s), v > 0 else {
            throw error("\(EchoedInput.quoted(s)) is not a duration (use e.g. 500ms, 10s, 5m, 1h30m)")
        }
        guard v <= max else { throw error("\(EchoedInput.quoted(s)) is longer than the maximum of \(PromDuration.format(max))") }
        return v
    }

    /// Reads a string matching one of an enum's raw values.
    public func oneOf<E: RawRepresentable & CaseIterable>(_: E.Type) throws(ConfigError) -> E where E.RawValue == String {
        let s = try string()
        guard let v = E(rawValue: s) else {
            throw error("\(EchoedInput.quoted(s)) is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return v
    }

    private static func keyPath(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    var kind: String {
        switch nodeKind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .plainScalar, .otherScalar: return "a scalar"
        }
    }

    var kindOrValue: String {
        document.isScalar(index) ? EchoedInput.quoted(document.string(index)) : kind
    }
}
