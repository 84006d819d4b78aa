/// One configured pin: a SHA-256 hash of a key or certificate, with its role and scope.
public struct Pin: Sendable, Hashable, Codable {
    /// What is hashed.
    public var type: PinType
    /// Canonical base64 of the 32-byte SHA-256 (no `sha256/` prefix).
    public var hash: String
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

    /// Equal when type, hash, role, scope and group are equal.
    public static func == (lhs: Pin, rhs: Pin) -> Bool {
        lhs.type == rhs.type && lhs.hash == rhs.hash && lhs.role == rhs.role && lhs.scope == rhs.scope
            && lhs.group == rhs.group
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(hash)
        hasher.combine(role)
        hasher.combine(scope)
        hasher.combine(group)
    }

    /// Label value used in metrics and journal fields: `type:hash`.
    public var label: String { "\(type.rawValue):\(hash)" }

    /// Parses a pin hash as written in a policy: base64 of 32 bytes, optionally `sha256/`-prefixed.
    /// Returns the canonical base64 form, or nil when the text is not such a hash.
    public static func canonicalHash(_ text: String) -> String? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.lowercased().hasPrefix("sha256/") { body = body.dropFirst(7) }
        guard let bytes = Base64.decode(String(body)), bytes.count == 32 else { return nil }
        return Base64.encode(bytes)
    }
}
