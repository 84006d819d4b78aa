import PinGuardCore

import CYaml

/// Builds a `YAMLDocument` from libyaml's events while `YAMLPreflight` checks them, so the text is
/// parsed once. It also notes what Yams' composer refused after those checks had passed, so that such
/// files keep their messages: a second document in the stream, and two keys equal as Yams compared
/// them that the preflight's text comparison let through: collections (`? [a]`), and texts that differ
/// only by a leading U+FEFF, which Yams dropped. The preflight's findings come first: a refusal is
/// reported only when the whole stream is within the limits.
struct YAMLTreeBuilder {
    /// What the composer refused, with the line it named.
    enum Refusal: Equatable {
        /// `not valid YAML: expected a single document in the stream: but found another document`.
        case anotherDocument(line: Int)
        /// `duplicate key "KEY", ...`: the text of each group of equal keys (`<uncovertable>` for a
        /// collection), and the line of the group that sorts first in Yams' order of nodes.
        case duplicateKeys(keys: [String], line: Int)
    }

    /// An open collection.
    private struct Open {
        var node: Int
        /// Where its children start in `pending`.
        var firstChild: Int
        var isMapping: Bool
        /// Whether the collection is itself a mapping key (`? [a, b]`).
        var isKey: Bool
        /// Whether a mapping has keys that the preflight's text comparison cannot tell apart as Yams did.
        var checkKeys = false
    }

    private var nodes: [YAMLDocument.Node] = []
    private var children: [Int] = []
    private var text: [UInt8] = []
    /// Children of the open collections, innermost last; moved to `children` when a collection ends.
    private var pending: [Int] = []
    private var open: [Open] = []
    /// How many of the open collections are mapping keys.
    private var openKeys = 0
    /// Tags other than the default, of keys and of nodes inside collection keys: Yams compared keys by
    /// value and tag.
    private var tags: [Int: String] = [:]
    private var documents = 0
    /// What the composer refused first; nothing more is built after it.
    private(set) var refusal: Refusal?

    private var building: Bool { documents == 1 && refusal == nil }

    /// Takes one event that passed the preflight's checks.
    mutating func add(_ event: yaml_event_t, line: Int) {
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents == 2 && refusal == nil { refusal = .anotherDocument(line: line) }
        case YAML_SCALAR_EVENT where building:
            let scalar = event.data.scalar
            let value = UnsafeBufferPointer(start: scalar.value, count: Int(clamping: scalar.length))
            let isKey = atKey
            if isKey, value.starts(with: [0xEF, 0xBB, 0xBF]) { open[open.count - 1].checkKeys = true }
            let start = text.count
            text.append(contentsOf: value)
            let index = append(YAMLDocument.Node(start: start, count: value.count, line: Int32(clamping: line),
                                                 kind: scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plainScalar : .otherScalar))
            if isKey || openKeys > 0, scalar.quoted_implicit == 0,
               let tag = Self.explicitTag(scalar.tag, default: "tag:yaml.org,2002:str") {
                tags[index] = tag
            }
        case YAML_SEQUENCE_START_EVENT where building, YAML_MAPPING_START_EVENT where building:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let isKey = atKey
            if isKey { open[open.count - 1].checkKeys = true }
            let index = append(YAMLDocument.Node(start: 0, count: 0, line: Int32(clamping: line),
                                                 kind: isMapping ? .mapping : .sequence))
            if isKey { openKeys += 1 }
            let (implicit, tag) = isMapping ? (event.data.mapping_start.implicit, event.data.mapping_start.tag)
                : (event.data.sequence_start.implicit, event.data.sequence_start.tag)
            if openKeys > 0, implicit == 0,
               let tag = Self.explicitTag(tag, default: isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq") {
                tags[index] = tag
            }
            open.append(Open(node: index, firstChild: pending.count, isMapping: isMapping, isKey: isKey))
        case YAML_SEQUENCE_END_EVENT where building, YAML_MAPPING_END_EVENT where building:
            guard let closed = open.popLast() else { return }
            if closed.isKey { openKeys -= 1 }
            nodes[closed.node].start = children.count
            nodes[closed.node].count = pending.count - closed.firstChild
            children.append(contentsOf: pending[closed.firstChild...])
            pending.removeSubrange(closed.firstChild...)
            if closed.checkKeys { checkKeys(of: closed.node) }
        default:
            break
        }
    }

    /// The first document, or nil when the stream has none (only valid without a refusal).
    func document() -> YAMLDocument? {
        documents == 0 ? nil : YAMLDocument(nodes: nodes, children: children, text: text)
    }

    private var atKey: Bool {
        guard let top = open.last, top.isMapping else { return false }
        return (pending.count - top.firstChild) % 2 == 0
    }

    private mutating func append(_ node: YAMLDocument.Node) -> Int {
        nodes.append(node)
        if !open.isEmpty { pending.append(nodes.count - 1) }
        return nodes.count - 1
    }

    /// Yams' duplicate-key check: keys equal by value and tag, grouped with their first occurrence.
    private mutating func checkKeys(of mapping: Int) {
        let entries = nodes[mapping]
        let keys = stride(from: entries.start, to: entries.start + entries.count, by: 2).map { children[$0] }
        var first: [YAMLKeyShape: Int] = [:]
        var repeated: [(shape: YAMLKeyShape, node: Int)] = []
        var counted = Set<Int>()
        for key in keys {
            let shape = YAMLKeyShape(key, nodes: nodes, children: children, text: text, tags: tags)
            if let earlier = first[shape] {
                if counted.insert(earlier).inserted { repeated.append((shape, earlier)) }
            } else {
                first[shape] = key
            }
        }
        // Yams sorted the groups as they came out of a dictionary, so for groups its order cannot rank
        // (a list and a mapping) the line it named varied from run to run; here it is the first such group's.
        guard let reported = repeated.sorted(by: { $0.shape < $1.shape }).first else { return }
        refusal = .duplicateKeys(keys: repeated.map(\.shape.text), line: Int(nodes[reported.node].line))
    }

    /// An explicit tag as Yams resolved it with the basic resolver: nil for the default (no tag, the
    /// non-specific `!`, or the default spelt out; a quoted scalar without a tag is `!!str` too).
    private static func explicitTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, default name: String) -> String? {
        guard let tag else { return nil }
        let text = String(cString: tag)
        return text.isEmpty || text == "!" || text == name ? nil : text
    }
}
