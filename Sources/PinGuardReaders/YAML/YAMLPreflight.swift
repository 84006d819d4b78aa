import PinGuardCore

import CYaml

/// Reads a YAML document's event stream once and rejects what would make reading it expensive or its
/// error messages unsafe: more bytes, depth, nodes or value length than `YAMLLimits`, any anchor or
/// alias, a repeated mapping key, and syntax errors (reported without echoing input). The same pass
/// hands every event that passed to a `YAMLTreeBuilder`, which builds the document `YAMLValue` reads;
/// a finding anywhere in the stream wins over the builder's refusals.
///
/// Aliases are refused outright rather than counted: an alias shares a node, and everything that
/// walks the tree afterwards (the duplicate-key checks, the policy reader copying rules per
/// environment) pays for it once per reference, so a few kilobytes of `*E` become millions of
/// rules. Policies and configs are short enough to write out. The scan uses libyaml's events
/// directly because a composer resolves aliases, which is exactly the expansion to avoid.
enum YAMLPreflight {
    /// What the scan found wrong, with the 1-based line.
    enum Finding: Equatable {
        case anchor(name: String, line: Int)
        case alias(name: String, line: Int)
        case tooDeep(line: Int)
        case tooManyNodes(line: Int)
        case duplicateKey(key: String, line: Int, firstLine: Int)
        case scalarTooLong(bytes: Int, line: Int)
        case syntax(message: String, line: Int?)
    }

    /// An open collection while scanning; a mapping alternates between key and value positions and
    /// remembers the line of each scalar key.
    private struct Frame {
        var isMapping: Bool
        var atKey = true
        /// Where the mapping's keys start in the list the open mappings share, while it has few.
        var firstKey: Int
        /// The keys of a mapping with more than `listedKeys` of them.
        var table: [String: Int]?
    }

    /// Up to this many keys a mapping's keys are compared one by one in a shared list: most mappings have
    /// a few, and a hash table for each of the 100,000 targets of a large config cost a tenth of loading it.
    private static let listedKeys = 16

    /// Throws when `text` breaks `limits`, uses an anchor or alias, repeats a key or is not YAML; every
    /// event goes to `builder`.
    static func check(_ text: String, file: String, limits: YAMLLimits, into builder: inout YAMLTreeBuilder) throws(ConfigError) {
        let size = text.utf8.count
        guard size <= limits.maxBytes else {
            throw ConfigError(file: file, line: nil, key: nil,
                              message: "the file has \(size) bytes; the limit is \(limits.maxBytes) bytes")
        }
        guard let finding = scan(text, limits: limits, into: &builder) else { return }
        throw error(finding, file: file, limits: limits)
    }

    static func error(_ finding: Finding, file: String, limits: YAMLLimits) -> ConfigError {
        switch finding {
        case .anchor(let name, let line):
            return ConfigError(file: file, line: line, key: nil,
                               message: "YAML anchors and aliases are not allowed (found anchor &\(EchoedInput.bare(name, limit: 40))); write the value out")
        case .alias(let name, let line):
            return ConfigError(file: file, line: line, key: nil,
                               message: "YAML anchors and aliases are not allowed (found alias *\(EchoedInput.bare(name, limit: 40))); write the value out")
        case .tooDeep(let line):
            return ConfigError(file: file, line: line, key: nil, message: "nested more than \(limits.maxDepth) levels deep")
        case .tooManyNodes(let line):
            return ConfigError(file: file, line: line, key: nil, message: "more than \(limits.maxNodes) YAML nodes")
        case .duplicateKey(let key, let line, let firstLine):
            return ConfigError(file: file, line: line, key: nil,
                               message: "duplicate key \(EchoedInput.quoted(key)) (first on line \(firstLine))")
        case .scalarTooLong(let bytes, let line):
            return ConfigError(file: file, line: line, key: nil,
                               message: "a value of \(bytes) bytes is longer than the limit of \(limits.maxScalarBytes) bytes")
        case .syntax(let message, let line):
            return ConfigError(file: file, line: line, key: nil, message: "not valid YAML: \(message)")
        }
    }

    /// The first finding, or nil when the document is within limits.
    static func scan(_ text: String, limits: YAMLLimits) -> Finding? {
        var builder = YAMLTreeBuilder()
        return scan(text, limits: limits, into: &builder)
    }

    /// The first finding, or nil when the document is within limits; every event up to the finding
    /// goes to `builder`.
    static func scan(_ text: String, limits: YAMLLimits, into builder: inout YAMLTreeBuilder) -> Finding? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return .syntax(message: "out of memory", line: nil) }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var stack: [Frame] = []
            var keys: [(text: String, line: Int)] = []
            var nodes = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return syntaxError(parser, bytes) }
                defer { yaml_event_delete(&event) }
                let line = Int(clamping: event.start_mark.line) + 1
                var anchor: UnsafeMutablePointer<yaml_char_t>?
                var opens: Frame?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_ALIAS_EVENT:
                    return .alias(name: name(event.data.alias.anchor), line: line)
                case YAML_SCALAR_EVENT:
                    anchor = event.data.scalar.anchor
                    let value = UnsafeBufferPointer(start: event.data.scalar.value, count: Int(clamping: event.data.scalar.length))
                    if value.count > limits.maxScalarBytes { return .scalarTooLong(bytes: value.count, line: line) }
                case YAML_SEQUENCE_START_EVENT:
                    anchor = event.data.sequence_start.anchor
                    opens = Frame(isMapping: false, firstKey: keys.count)
                case YAML_MAPPING_START_EVENT:
                    anchor = event.data.mapping_start.anchor
                    opens = Frame(isMapping: true, firstKey: keys.count)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let closed = stack.popLast() { keys.removeSubrange(min(closed.firstKey, keys.count)...) }
                    builder.add(event, line: line)
                    continue
                default:
                    builder.add(event, line: line)
                    continue
                }
                if let anchor { return .anchor(name: name(anchor), line: line) }
                nodes += 1
                if nodes > limits.maxNodes { return .tooManyNodes(line: line) }
                if let top = stack.indices.last, stack[top].isMapping {
                    // Only scalar keys are compared, by text: `a` and `"a"` are the same key to pinguard.
                    // The frame is changed in place: copying its key table per key would be quadratic.
                    if stack[top].atKey, event.type == YAML_SCALAR_EVENT {
                        let key = String(decoding: UnsafeBufferPointer(start: event.data.scalar.value,
                                                                       count: Int(clamping: event.data.scalar.length)),
                                         as: UTF8.self)
                        if stack[top].table != nil {
                            if let first = stack[top].table![key] { return .duplicateKey(key: key, line: line, firstLine: first) }
                            stack[top].table![key] = line
                        } else {
                            // By index: a slice of `keys` alive at the append would copy the list per key.
                            let listed = stack[top].firstKey..<keys.count
                            if let first = listed.first(where: { keys[$0].text == key }) {
                                return .duplicateKey(key: key, line: line, firstLine: keys[first].line)
                            }
                            if listed.count < listedKeys {
                                keys.append((key, line))
                            } else {
                                var table = [String: Int](minimumCapacity: 2 * listedKeys)
                                for i in listed { table[keys[i].text] = keys[i].line }
                                table[key] = line
                                keys.removeSubrange(listed)
                                stack[top].table = table
                            }
                        }
                    }
                    stack[top].atKey.toggle()
                }
                if let opens {
                    stack.append(opens)
                    if stack.count > limits.maxDepth { return .tooDeep(line: line) }
                }
                builder.add(event, line: line)
            }
        }
    }

    /// libyaml's own description of a syntax error; it never quotes the input, and the one value it
    /// carries (the offending character of a reader error) is escaped.
    private static func syntaxError(_ parser: yaml_parser_t, _ bytes: UnsafeBufferPointer<UInt8>) -> Finding {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        if parser.error == YAML_READER_ERROR {
            let offset = min(Int(clamping: parser.problem_offset), bytes.count)
            let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            var what = problem
            if parser.problem_value >= 0 { what += " (\(unicodeName(UInt32(parser.problem_value))))" }
            return .syntax(message: EchoedInput.bare(what), line: line)
        }
        let context = parser.context.map { String(cString: $0) }
        let what = [context, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        return .syntax(message: EchoedInput.bare(what), line: Int(clamping: parser.problem_mark.line) + 1)
    }

    /// `U+001B`.
    static func unicodeName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}
