import PinGuardCore

/// One YAML document as pinguard reads it: every node in one flat table, built by `YAMLTreeBuilder`
/// from the same libyaml events that `YAMLPreflight` checks.
///
/// Flat because of size: a 100,000-target `pinguard.yml` has 900,000 nodes, and a tree of Yams'
/// `Node`s (an enum case, a tag object, a mark and an array per node, a String per scalar made on
/// load) took half of the time of loading it. Here a node is one table row; a scalar's text stays
/// bytes until a reader asks for it. Only what `YAMLValue` reads is kept: kind, whether a scalar is
/// plain (unquoted, not a block scalar), text, children in document order, and the 1-based line.
final class YAMLDocument: Sendable {
    /// What a node is. A plain scalar is kept apart from the other styles because `null`, `true`
    /// and `5` mean null, a boolean and a number only when written without quotes.
    enum Kind: UInt8, Sendable {
        case plainScalar, otherScalar, sequence, mapping
    }

    /// One row of the table.
    struct Node: Sendable {
        /// Scalar: offset of its text in `text`. Collection: offset of its children in `children`.
        var start: Int
        /// Scalar: bytes of text. Sequence: items. Mapping: keys and values, key first.
        var count: Int
        /// 1-based line of the node's first character.
        var line: Int32
        var kind: Kind
    }

    let nodes: [Node]
    let children: [Int]
    let text: [UInt8]

    init(nodes: [Node], children: [Int], text: [UInt8]) {
        self.nodes = nodes
        self.children = children
        self.text = text
    }

    func isScalar(_ index: Int) -> Bool {
        let kind = nodes[index].kind
        return kind == .plainScalar || kind == .otherScalar
    }

    /// The children of a collection: items, or keys and values alternately.
    func children(of index: Int) -> ArraySlice<Int> {
        let node = nodes[index]
        return children[node.start..<node.start + node.count]
    }

    /// A scalar's text.
    func string(_ index: Int) -> String {
        let node = nodes[index]
        return text.withUnsafeBufferPointer { all in
            YAMLDocument.string(UnsafeBufferPointer(rebasing: all[node.start..<node.start + node.count]))
        }
    }

    /// Text of a scalar from libyaml (always valid UTF-8), as Yams made it, which pinguard's messages and
    /// comparisons have relied on: Foundation's `String(bytes:encoding: .utf8)` drops one leading U+FEFF.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[3...]), as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
