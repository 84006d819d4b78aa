/// Which certificates of the evaluated chain a pin may match.
public enum PinScope: String, Sendable, Codable, CaseIterable {
    case leaf
    case intermediate
    case root
    case any
}
