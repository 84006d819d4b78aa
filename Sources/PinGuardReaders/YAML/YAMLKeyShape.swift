import PinGuardCore

/// A mapping key compared as Yams compared keys, so that a mapping with two keys equal in Yams' sense
/// but not by text (`? [a]` twice) is refused with Yams' message and line (`YAMLTreeBuilder`): equal
/// when the values and the resolved tags are equal, in Swift's string equality; ordered as Yams'
/// `Node` is.
indirect enum YAMLKeyShape: Hashable {
    case scalar(String, tag: String?)
    case sequence([YAMLKeyShape], tag: String?)
    /// Keys and values alternately, in document order.
    case mapping([YAMLKeyShape], tag: String?)

    /// The shape of node `index` of a table being built.
    init(_ index: Int, nodes: [YAMLDocument.Node], children: [Int], text: [UInt8], tags: [Int: String]) {
        let node = nodes[index]
        let tag = tags[index]
        switch node.kind {
        case .plainScalar, .otherScalar:
            let value = text.withUnsafeBufferPointer { all in
                YAMLDocument.string(UnsafeBufferPointer(rebasing: all[node.start..<node.start + node.count]))
            }
            self = .scalar(value, tag: tag)
        case .sequence, .mapping:
            let parts = children[node.start..<node.start + node.count].map {
                YAMLKeyShape($0, nodes: nodes, children: children, text: text, tags: tags)
            }
            self = node.kind == .sequence ? .sequence(parts, tag: tag) : .mapping(parts, tag: tag)
        }
    }

    /// The key as Yams' message showed it: a scalar's text, `<uncovertable>` (sic) for a collection.
    var text: String {
        if case .scalar(let value, _) = self { return value }
        return "<uncovertable>"
    }

    /// Yams' order of nodes: scalars by text, sequences by items, mappings by keys only (then by
    /// length); nodes of different kinds are unordered.
    static func < (lhs: YAMLKeyShape, rhs: YAMLKeyShape) -> Bool {
        switch (lhs, rhs) {
        case let (.scalar(l, _), .scalar(r, _)):
            return l < r
        case let (.sequence(l, _), .sequence(r, _)):
            return ordered(l, r)
        case let (.mapping(l, _), .mapping(r, _)):
            return ordered(stride(from: 0, to: l.count, by: 2).map { l[$0] }, stride(from: 0, to: r.count, by: 2).map { r[$0] })
        default:
            return false
        }
    }

    private static func ordered(_ lhs: [YAMLKeyShape], _ rhs: [YAMLKeyShape]) -> Bool {
        for (l, r) in zip(lhs, rhs) {
            if l < r { return true }
            if r < l { return false }
        }
        return lhs.count < rhs.count
    }
}
