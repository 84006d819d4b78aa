import Foundation

/// One pin as written in a policy file (docs/reference.md, Policy files and Evaluation); nil fields are left out so the file's defaults apply.
public struct PinSpec: Sendable {
    /// `spki`, `certificate` or `ca`.
    public var type: String
    /// Base64 SHA-256.
    public var hash: String
    /// `primary` or `backup`, nil = default.
    public var role: String?
    /// `leaf`, `intermediate`, `root`, `any`, nil = default.
    public var scope: String?

    /// Creates a pin.
    public init(type: String = "spki", hash: String, role: String? = nil, scope: String? = nil) {
        self.type = type
        self.hash = hash
        self.role = role
        self.scope = scope
    }

    /// An `spki` pin.
    public static func spki(_ hash: String, role: String? = nil, scope: String? = nil) -> PinSpec {
        PinSpec(type: "spki", hash: hash, role: role, scope: scope)
    }
}

/// One host policy of a policy file; nil fields are left out so the file's defaults apply.
public struct HostPolicySpec: Sendable {
    /// Host pattern (exact, `*.`, `**.`).
    public var pattern: String
    /// The pins (empty = `pins: []`).
    public var pins: [PinSpec]
    /// `strict` or `permissive`.
    public var failStrategy: String?
    /// `require_system_trust`.
    public var requireSystemTrust: Bool?
    /// `allow_system_trust_fallback`.
    public var allowSystemTrustFallback: Bool?
    /// `expires`, e.g. `2020-01-01`.
    public var expires: String?

    /// Creates a host policy.
    public init(pattern: String, pins: [PinSpec], failStrategy: String? = nil, requireSystemTrust: Bool? = nil,
                allowSystemTrustFallback: Bool? = nil, expires: String? = nil) {
        self.pattern = pattern
        self.pins = pins
        self.failStrategy = failStrategy
        self.requireSystemTrust = requireSystemTrust
        self.allowSystemTrustFallback = allowSystemTrustFallback
        self.expires = expires
    }
}

/// Writes policy files (docs/reference.md, Policy files and Evaluation) for tests.
public enum PolicyYAML {
    /// A policy file whose only pin is not a hash, on line 8 (`broken.yml` in `folder`): what a malformed
    /// policy file is refused for, naming the file and the line.
    public static func writeMalformed(in folder: URL) throws -> String {
        try write("""
            name: broken
            environments:
              prod:
                policies:
                  - pattern: valid.pinguard.test
                    policy:
                      pins:
                        - {type: spki, hash: "not-a-hash"}

            """, to: folder, as: "broken.yml")
    }

    /// The text of a policy file naming set `name`, with `rules` in `environment`.
    public static func policySet(name: String, environment: String = "prod", rules: [HostPolicySpec]) -> String {
        var y = "name: \(name)\nenvironments:\n  \(environment):\n    policies:\n"
        if rules.isEmpty { y = "name: \(name)\nenvironments:\n  \(environment):\n    policies: []\n" }
        for r in rules {
            y += "      - pattern: \"\(r.pattern)\"\n        policy:\n"
            if let f = r.failStrategy { y += "          fail_strategy: \(f)\n" }
            if let t = r.requireSystemTrust { y += "          require_system_trust: \(t)\n" }
            if let a = r.allowSystemTrustFallback { y += "          allow_system_trust_fallback: \(a)\n" }
            if let e = r.expires { y += "          expires: \(e)\n" }
            if r.pins.isEmpty {
                y += "          pins: []\n"
            } else {
                y += "          pins:\n"
                for p in r.pins {
                    var fields = ["type: \(p.type)", "hash: \"\(p.hash)\""]
                    if let role = p.role { fields.append("role: \(role)") }
                    if let scope = p.scope { fields.append("scope: \(scope)") }
                    y += "            - {\(fields.joined(separator: ", "))}\n"
                }
            }
        }
        return y
    }

    /// Writes `text` to `directory/fileName` and returns the path.
    @discardableResult
    public static func write(_ text: String, to directory: URL, as fileName: String) throws -> String {
        let url = directory.appendingPathComponent(fileName)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
