import Foundation
import PinGuardCore

/// Parses a policy file (docs/reference.md, Policy files and Evaluation) strictly, reporting file, line and key for every problem.
public enum PolicyParser {
    static let policyKeys: Set<String> = ["pins", "fail_strategy", "require_system_trust",
                                          "allow_system_trust_fallback", "expires", "match", "certificate_transparency"]
    static let pinKeys: Set<String> = ["type", "hash", "algorithm", "role", "scope", "group"]

    /// Parses one policy file's text.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> PolicySet {
        let root = try YAMLValue.parse(text, file: file)
        let top = try root.mapping(allowed: ["name", "version", "client", "client_versions", "certificate_transparency",
                                             "environments"])
        guard let nameValue = top["name"] else { throw root.error("missing required key \"name\"") }
        let name = try nameValue.nonEmptyString()
        let version = try top["version"].map { v throws(ConfigError) in try v.string() }
        guard let envsValue = top["environments"] else { throw root.error("missing required key \"environments\"") }
        var environments: [String: PolicyEnvironment] = [:]
        let entries = try envsValue.entries()
        if entries.isEmpty { throw envsValue.error("must name at least one environment") }
        for (envName, envValue) in entries {
            environments[envName] = try parseEnvironment(envValue)
        }
        var set = PolicySet(name: name, version: version, environments: environments, file: file)
        set.nameLine = nameValue.line
        if let v = top["client"] { set.client = try v.oneOf(CTClient.self) }
        if let v = top["certificate_transparency"] { set.certificateTransparency = try v.oneOf(CTRequirement.self) }
        if let v = top["client_versions"] { set.clientVersions = try clientVersions(v, client: set.client) }
        return set
    }

    /// `client_versions`: a range such as `"24-37"` (quoted or a bare number), for a client with versions.
    static func clientVersions(_ value: YAMLValue, client: CTClient) throws(ConfigError) -> ClientVersions {
        guard client != .none, client != .jvm else {
            throw value.error("client_versions needs a client with versions (client: android, ios or chrome)")
        }
        let text = try value.string()
        guard let versions = ClientVersions(text) else {
            throw value.error("client_versions \"\(text)\" is not a range of versions such as \"24-37\", \"34\" or \"24-\"")
        }
        return versions
    }

    static func parseEnvironment(_ value: YAMLValue) throws(ConfigError) -> PolicyEnvironment {
        if value.isNull { return PolicyEnvironment(line: value.line) }
        let m = try value.mapping(allowed: ["policies", "default_policy"])
        var env = PolicyEnvironment(line: value.line)
        var seen: [HostPattern: Int] = [:]
        for item in try m["policies"]?.sequence() ?? [] {
            let r = try item.mapping(allowed: ["pattern", "policy"])
            guard let pv = r["pattern"] else { throw item.error("missing required key \"pattern\"") }
            let text = try pv.string()
            let pattern: HostPattern
            do { pattern = try HostPattern.parse(text) } catch { throw pv.error(error.message) }
            if let first = seen[pattern] {
                throw pv.error("pattern \(EchoedInput.quoted(text)) is already defined on line \(first)")
            }
            seen[pattern] = pv.line ?? 0
            guard let pol = r["policy"] else { throw item.error("missing required key \"policy\"") }
            env.rules.append(PatternRule(pattern: pattern, policy: try parsePolicy(pol), line: pv.line))
        }
        if let d = m["default_policy"] { env.defaultPolicy = try parsePolicy(d) }
        return env
    }

    /// Parses one `policy:` mapping.
    public static func parsePolicy(_ value: YAMLValue) throws(ConfigError) -> HostPolicy {
        let m = try value.mapping(allowed: policyKeys)
        var p = HostPolicy()
        if let v = m["fail_strategy"] {
            let s = try v.string()
            guard let f = FailStrategy(rawValue: s) else { throw v.error("\(EchoedInput.quoted(s)) is not one of strict, permissive") }
            p.failStrategy = f
        }
        if let v = m["require_system_trust"] { p.requireSystemTrust = try v.bool() }
        if let v = m["allow_system_trust_fallback"] { p.allowSystemTrustFallback = try v.bool() }
        if let v = m["expires"] {
            let s = try v.string()
            guard let d = PinSetExpiry.parse(s) else {
                throw v.error("\(EchoedInput.quoted(s)) is not a date (use YYYY-MM-DD or an RFC 3339 time, UTC)")
            }
            p.expires = d
        }
        if let v = m["match"] {
            let s = try v.string()
            guard let mode = PinMatchMode(rawValue: s) else { throw v.error("\(EchoedInput.quoted(s)) is not one of any, each_group") }
            p.matchMode = mode
        }
        if let v = m["certificate_transparency"] { p.certificateTransparency = try v.oneOf(CTRequirement.self) }
        var seen: [Pin: Int] = [:]
        for pv in try m["pins"]?.sequence() ?? [] {
            let pin = try parsePin(pv)
            if let first = seen[pin] {
                throw pv.error("duplicate pin (same as the pin on line \(first))")
            }
            seen[pin] = pv.line ?? 0
            p.pins.append(pin)
        }
        if p.matchMode == .eachGroup && p.pins.contains(where: { $0.group == nil }) {
            throw value.error("match: each_group needs a group on every pin")
        }
        return p
    }

    static func parsePin(_ value: YAMLValue) throws(ConfigError) -> Pin {
        let m = try value.mapping(allowed: pinKeys)
        guard let hv = m["hash"] else { throw value.error("missing required key \"hash\"") }
        let raw = try hv.string()
        let algorithm = try m["algorithm"]?.oneOf(PinHashAlgorithm.self) ?? .sha256
        guard let hash = Pin.canonicalHash(raw, algorithm: algorithm) else {
            switch algorithm {
            case .sha256:
                throw hv.error("\(EchoedInput.quoted(raw)) is not a base64 SHA-256 hash (44 characters of base64 for 32 bytes, optionally prefixed sha256/)")
            case .sha1:
                throw hv.error("\(EchoedInput.quoted(raw)) is not a base64 SHA-1 hash (28 characters of base64 for 20 bytes, optionally prefixed sha1/)")
            }
        }
        var pin = Pin(hash: hash, algorithm: algorithm, line: value.line)
        if let v = m["type"] { pin.type = try v.oneOf(PinType.self) }
        if pin.algorithm == .sha1 && pin.type == .certificate {
            throw (m["algorithm"] ?? value).error("sha1 pins hash a SubjectPublicKeyInfo (OkHttp's sha1/ pins); use type spki or ca")
        }
        if let v = m["role"] { pin.role = try v.oneOf(PinRole.self) }
        if let v = m["scope"] { pin.scope = try v.oneOf(PinScope.self) }
        if let v = m["group"] { pin.group = try v.nonEmptyString() }
        if pin.type == .ca && pin.scope == .leaf {
            throw (m["scope"] ?? value).error("a ca pin never matches the leaf; use type spki for scope leaf")
        }
        return pin
    }
}
