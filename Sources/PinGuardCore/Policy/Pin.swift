/// One configured pin: a hash of a key or certificate (SHA-256, or SHA-1 for OkHttp's `sha1/` pins), with its
/// role and scope.
public struct Pin: Sendable, Hashable, Codable {
    /// What is hashed.
    public var type: PinType
    /// Canonical base64 of the digest (no `sha256/` or `sha1/` prefix).
    public var hash: String
    /// Which digest `hash` is.
    public var algorithm: PinHashAlgorithm = .sha256
    /// Primary (in use) or backup (reserve).
    public var role: PinRole
    /// Which chain positions may match.
    public var scope: PinScope
    /// Match group for policies whose `match` is `each_group` (NSPinnedDomains: `leaf`, `ca`).
    public var group: String?
    /// Line in the source file, for diagnostics; not part of identity.
    public var line: Int?

    /// Creates a pin; `hash` must already be canonical base64 of 32 bytes.
    public init(type: PinType = .spki, hash: String, role: PinRole = .primary, scope: PinScope = .any,
                group: String? = nil, line: Int? = nil) {
        self.type = type
        self.hash = hash
        self.role = role
        self.scope = scope
        self.group = group
        self.line = line
    }

    /// Creates a pin holding a digest of `algorithm`; `hash` must already be canonical base64 of its length.
    public init(type: PinType = .spki, hash: String, algorithm: PinHashAlgorithm, role: PinRole = .primary,
                scope: PinScope = .any, group: String? = nil, line: Int? = nil) {
        self.init(type: type, hash: hash, role: role, scope: scope, group: group, line: line)
        self.algorithm = algorithm
    }

    /// Equal when type, hash, algorithm, role, scope and group are equal.
    public static func == (lhs: Pin, rhs: Pin) -> Bool {
        lhs.type == rhs.type && lhs.hash == rhs.hash && lhs.algorithm == rhs.algorithm && lhs.role == rhs.role
            && lhs.scope == rhs.scope && lhs.group == rhs.group
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(hash)
        hasher.combine(algorithm)
        hasher.combine(role)
        hasher.combine(scope)
        hasher.combine(group)
    }

    /// Label value used in metrics and journal fields: `type:hash`, `type:sha1/hash` for a SHA-1 pin.
    public var label: String {
        algorithm == .sha256 ? "\(type.rawValue):\(hash)" : "\(type.rawValue):\(algorithm.prefix)\(hash)"
    }

    /// The hash as OkHttp writes it: `sha256/…` or `sha1/…`.
    public var prefixedHash: String { algorithm.prefix + hash }

    /// Parses a pin hash as written in a policy: base64 of a digest of `algorithm`, optionally prefixed with
    /// the algorithm's name (`sha256/`, `sha1/`). Returns the canonical base64 form, or nil when the text is not
    /// such a hash.
    public static func canonicalHash(_ text: String, algorithm: PinHashAlgorithm = .sha256) -> String? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.lowercased().hasPrefix(algorithm.prefix) { body = body.dropFirst(algorithm.prefix.count) }
        guard let bytes = Base64.decode(String(body)), bytes.count == algorithm.digestBytes else { return nil }
        return Base64.encode(bytes)
    }
}
