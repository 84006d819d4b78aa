import Foundation
import Yams

/// A YAML node with its file and key path, read strictly: wrong types and unknown keys are errors.
public struct YAMLValue {
    /// The underlying node.
    public let node: Node
    /// File name, for errors.
    public let file: String
    /// Dotted key path, for errors.
    public let path: String

    /// Parses a whole document within `limits`; an empty document is an error naming the file.
    ///
    /// The event stream is checked first (`YAMLPreflight`): size, depth, node count, no anchors or
    /// aliases, no repeated keys, and syntax errors described without echoing the input. Only then
    /// does Yams build the node tree, which is then at most `limits.maxNodes` nodes.
    public static func parse(_ text: String, file: String, limits: YAMLLimits = .standard) throws(ConfigError) -> YAMLValue {
        try YAMLPreflight.check(text, file: file, limits: limits)
        do {
            // The basic resolver: every plain scalar is read as text (`int()`, `bool()` and `isNull` decide on
            // the text themselves), so Yams does not run its implicit-type regular expressions on each one,
            // which cost half of the time of loading a 100,000-target configuration.
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw ConfigError(file: file, line: 1, key: nil, message: "the document is empty")
            }
            return YAMLValue(node: node, file: file, path: "")
        } catch let e as ConfigError {
            throw e
        } catch let e as YamlError {
            throw YAMLValue.describe(e, file: file)
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid YAML")
        }
    }

    /// A Yams error as a one-line message. Yams' own descriptions quote the offending line (or the whole
    /// document, for duplicate keys), so only its problem text and position are used.
    static func describe(_ error: YamlError, file: String) -> ConfigError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let what = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ConfigError(file: file, line: mark.line, key: nil, message: "not valid YAML: \(EchoedInput.bare(what))")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().prefix(3).map { EchoedInput.quoted($0, limit: 60) }.joined(separator: ", ")
            return ConfigError(file: file, line: context.mark.line, key: nil, message: "duplicate key \(keys)")
        case .reader(let problem, _, _, _):
            return ConfigError(file: file, line: nil, key: nil, message: "not valid YAML: \(EchoedInput.bare(problem))")
        default:
            return ConfigError(file: file, line: nil, key: nil, message: "not valid YAML")
        }
    }

    /// 1-based line of this node.
    public var line: Int? { node.mark?.line }

    /// An error at this node.
    public func error(_ message: String) -> ConfigError {
        ConfigError(file: file, line: line, key: path.isEmpty ? nil : path, message: message)
    }

    func child(_ node: Node, _ key: String) -> YAMLValue {
        YAMLValue(node: node, file: file, path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// Whether this node is YAML null (`~`, `null`, or empty).
    public var isNull: Bool {
        if case .scalar(let s) = node, s.style == .plain, ["", "~", "null", "Null", "NULL"].contains(s.string) {
            return true
        }
        return false
    }

    /// Reads a mapping, rejecting keys not in `allowed` and duplicate keys.
    public func mapping(allowed: Set<String>) throws(ConfigError) -> [String: YAMLValue] {
        guard case .mapping(let m) = node else { throw error("expected a mapping, found \(kind)") }
        var out: [String: YAMLValue] = [:]
        for (k, v) in m {
            guard case .scalar(let ks) = k else { throw error("a mapping key must be a string") }
            let key = ks.string
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            guard allowed.contains(key) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw ConfigError(file: file, line: k.mark?.line, key: keyPath,
                                  message: "unknown key (known keys: \(known))")
            }
            guard out[key] == nil else {
                throw ConfigError(file: file, line: k.mark?.line, key: keyPath, message: "duplicate key \(EchoedInput.quoted(key))")
            }
            out[key] = child(v, key)
        }
        return out
    }

    /// Reads a mapping with arbitrary string keys, in document order (e.g. environments).
    public func entries() throws(ConfigError) -> [(key: String, value: YAMLValue)] {
        guard case .mapping(let m) = node else { throw error("expected a mapping, found \(kind)") }
        var seen = Set<String>()
        var out: [(String, YAMLValue)] = []
        for (k, v) in m {
            guard case .scalar(let ks) = k else { throw error("a mapping key must be a string") }
            guard seen.insert(ks.string).inserted else {
                throw ConfigError(file: file, line: k.mark?.line, key: path.isEmpty ? ks.string : "\(path).\(ks.string)",
                                  message: "duplicate key \(EchoedInput.quoted(ks.string))")
            }
            out.append((ks.string, child(v, ks.string)))
        }
        return out
    }

    /// Whether this node is a sequence.
    public var isSequence: Bool {
        if case .sequence = node { return true }
        return false
    }

    /// Reads a sequence.
    public func sequence() throws(ConfigError) -> [YAMLValue] {
        guard case .sequence(let s) = node else { throw error("expected a list, found \(kind)") }
        return s.enumerated().map { i, n in YAMLValue(node: n, file: file, path: "\(path)[\(i)]") }
    }

    /// Reads a scalar as a string (any scalar; quoted or not).
    public func string() throws(ConfigError) -> String {
        guard case .scalar(let s) = node else { throw error("expected a string, found \(kind)") }
        return s.string
    }

    /// Reads a non-empty string.
    public func nonEmptyString() throws(ConfigError) -> String {
        let s = try string()
        // Scalar by scalar, not through NSString: a 100,000-target configuration reads 300,000 of these.
        guard s.unicodeScalars.contains(where: { !CharacterSet.whitespaces.contains($0) }) else { throw error("must not be empty") }
        return s
    }

    /// Reads an integer within `range`.
    public func int(in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard case .scalar(let s) = node, s.style == .plain, let v = Int(s.string) else {
            throw error("expected an integer, found \(kindOrValue)")
        }
        guard range.contains(v) else { throw error("\(v) is out of range \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// Reads a boolean (`true` / `false`).
    public func bool() throws(ConfigError) -> Bool {
        if case .scalar(let s) = node, s.style == .plain {
            switch s.string {
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

    var kind: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar: return "a scalar"
        case .alias: return "an alias"
        }
    }

    var kindOrValue: String {
        if case .scalar(let s) = node { return EchoedInput.quoted(s.string) }
        return kind
    }
}
