import PinGuardCore

/// Reads the `policy_bundles` list of `pinguard.yml`.
enum PolicyBundleParser {
    static func parse(_ value: YAMLValue, defaultEnvironment: String) throws(ConfigError) -> [PolicyBundle] {
        var out: [PolicyBundle] = []
        for item in try value.sequence() {
            let m = try item.mapping(allowed: ["name", "environment", "bundle", "hmac_secrets", "ecdsa_public_keys", "builtin_policy"])
            guard let nv = m["name"] else { throw item.error("missing required key \"name\"") }
            guard let fv = m["bundle"] else { throw item.error("missing required key \"bundle\"") }
            let name = try nv.nonEmptyString()
            if out.contains(where: { $0.name == name }) { throw nv.error("policy bundle \(EchoedInput.quoted(name)) is configured twice") }
            var b = PolicyBundle(name: name, environment: defaultEnvironment, file: try fv.nonEmptyString(), line: item.line)
            if let v = m["environment"] { b.environment = try v.nonEmptyString() }
            if let v = m["hmac_secrets"], !v.isNull { b.hmacSecrets = try keyFiles(v) }
            if let v = m["ecdsa_public_keys"], !v.isNull { b.ecdsaPublicKeys = try keyFiles(v) }
            if let v = m["builtin_policy"], !v.isNull { b.builtinPolicy = try v.nonEmptyString() }
            if b.hmacSecrets.isEmpty && b.ecdsaPublicKeys.isEmpty {
                throw item.error("policy bundle \(EchoedInput.quoted(name)) has no key: give hmac_secrets or ecdsa_public_keys (key ID: file)")
            }
            out.append(b)
        }
        return out
    }

    /// A mapping of key IDs to files.
    static func keyFiles(_ value: YAMLValue) throws(ConfigError) -> [String: String] {
        var out: [String: String] = [:]
        for (id, v) in try value.entries() { out[id] = try v.nonEmptyString() }
        return out
    }
}
