/// Which addresses of a target's name are probed (`resolve` in the configuration).
public enum ResolveMode: String, Sendable, Equatable, CaseIterable {
    /// Every A and AAAA address, each probed and judged on its own: a client may land on any of them.
    case all
    /// The first address that accepts a connection, as a single client connection would.
    case first
}
