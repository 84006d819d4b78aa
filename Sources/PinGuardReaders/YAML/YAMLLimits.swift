import PinGuardCore

/// Bounds on a YAML document that pinguard reads (policy files, `pinguard.yml`).
///
/// They are checked on the parser's event stream in the pass that builds the document, which stops at
/// the first breach, so the cost of a hostile file is bounded by these numbers and not by what the file
/// asks for.
public struct YAMLLimits: Sendable, Equatable {
    /// Largest document, in bytes of UTF-8.
    public var maxBytes: Int
    /// Deepest nesting of mappings and sequences (the root collection is depth 1).
    public var maxDepth: Int
    /// Most nodes (scalars, mappings, sequences; keys count) in the document.
    public var maxNodes: Int

    /// Longest single value (scalar), in bytes. No value of a pinguard file needs more than a few
    /// hundred; the cap keeps every later step (host checks, messages) cheap.
    public var maxScalarBytes: Int

    /// Creates limits.
    public init(maxBytes: Int, maxDepth: Int, maxNodes: Int, maxScalarBytes: Int = 65_536) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxScalarBytes = maxScalarBytes
    }

    /// The limits of every policy and config file: 16 MiB, depth 64, 500,000 nodes, 64 KiB per value.
    /// A policy with 10,000 pins in 1,000 patterns has about 100,000 nodes and nests 9 deep; a
    /// 480,000-node policy is read in about 0.5 s of CPU in a release build (a debug build needs 10x more),
    /// so the cap also bounds the time.
    public static let standard = YAMLLimits(maxBytes: 16 << 20, maxDepth: 64, maxNodes: 500_000, maxScalarBytes: 65_536)

    /// The limits of `pinguard.yml`: as `standard`, but 2,000,000 nodes, so that one instance can list
    /// 100,000 targets inline (a flow mapping of four keys is 9 nodes). Anchors and aliases are refused,
    /// so the node count is bounded by the 16 MiB too; 2,000,000 nodes are read in about 0.4 s in a
    /// release build, and `check-config` of 100,000 targets takes about 0.6 s (scripts/bench.sh).
    public static let serviceConfig = YAMLLimits(maxBytes: 16 << 20, maxDepth: 64, maxNodes: 2_000_000, maxScalarBytes: 65_536)
}
