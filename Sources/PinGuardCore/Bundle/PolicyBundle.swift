/// A signed remote pin bundle configured as a policy source (`policy_bundles:` in `pinguard.yml`): the blob an
/// app fetches, the keys the app verifies it with, and optionally the pins the app ships built in
/// (docs/reference.md, Signed policy bundles).
public struct PolicyBundle: Sendable, Equatable {
    /// Policy set name the bundle's pins are evaluated under (label `policy_set`).
    public var name: String
    /// Environment of the pins inside.
    public var environment: String
    /// The blob file: PinGuard's `RemoteConfigBlob` JSON.
    public var file: String
    /// HMAC-SHA256 secrets by secret ID: files whose exact bytes are the key.
    public var hmacSecrets: [String: String]
    /// ECDSA P-256 public keys by key ID: PEM `PUBLIC KEY` files.
    public var ecdsaPublicKeys: [String: String]
    /// A pinguard policy file with the pins built into the app, enforced when no verified payload is known.
    public var builtinPolicy: String?
    /// Source line of the entry.
    public var line: Int?

    /// Creates a bundle source.
    public init(name: String, environment: String, file: String, hmacSecrets: [String: String] = [:],
                ecdsaPublicKeys: [String: String] = [:], builtinPolicy: String? = nil, line: Int? = nil) {
        self.name = name
        self.environment = environment
        self.file = file
        self.hmacSecrets = hmacSecrets
        self.ecdsaPublicKeys = ecdsaPublicKeys
        self.builtinPolicy = builtinPolicy
        self.line = line
    }

    /// The same bundle with every path resolved by `resolve`.
    public func mapPaths(_ resolve: (String) -> String) -> PolicyBundle {
        var b = self
        b.file = resolve(file)
        b.hmacSecrets = hmacSecrets.mapValues(resolve)
        b.ecdsaPublicKeys = ecdsaPublicKeys.mapValues(resolve)
        b.builtinPolicy = builtinPolicy.map(resolve)
        return b
    }
}
