/// Which trust anchors the clients would treat as publicly trusted, so that their CT policy applies.
public enum CTPublicRoots: Sendable, Equatable {
    /// Every anchor of the system trust store (the default without `trust.ca_file`).
    case systemStore
    /// The roots of `ct.public_roots`, by base64 SHA-256 of their SubjectPublicKeyInfo.
    case keys(Set<String>)
    /// None: a private CA (`trust.ca_file` without `ct.public_roots`) is exempt, as the clients exempt
    /// user-added and MDM roots.
    case none

    /// The public roots without `ct.public_roots`: the system store's, or none when `caFile` (`trust.ca_file`) replaces it.
    public static func defaultRoots(caFile: String?) -> CTPublicRoots { caFile == nil ? .systemStore : .none }

    /// Whether a chain that passed trust and ends at `anchor` is publicly anchored.
    public func contains(_ anchor: ChainCertificate?) -> Bool {
        switch self {
        case .systemStore: anchor != nil
        case .keys(let keys): anchor.map { keys.contains($0.spkiSHA256) } ?? false
        case .none: false
        }
    }
}
