import Foundation
import PinGuardCore

/// The signed payload of a PinGuard remote configuration: `{"version": 1, "policySet": {"policies": [{"pattern":
/// "api.example.com", "policy": {"pins": [{"type", "hash", "role", "scope"}], "failStrategy", "requireSystemTrust",
/// "allowSystemTrustFallback"}}], "defaultPolicy": {...}}}`, with PinGuard's defaults for absent keys.
public enum RemoteConfigPayload {
    /// The payload version PinGuard accepts.
    public static let supportedVersion = 1

    private struct Payload: Decodable { var version: Int; var policySet: Set }
    private struct Set: Decodable { var policies: [Rule]; var defaultPolicy: Policy? }
    private struct Rule: Decodable { var pattern: String; var policy: Policy }
    private struct Policy: Decodable {
        var pins: [PinEntry]
        var failStrategy: FailStrategy?
        var requireSystemTrust: Bool?
        var allowSystemTrustFallback: Bool?
    }
    private struct PinEntry: Decodable { var type: PinType; var hash: String; var role: PinRole?; var scope: PinScope? }

    /// The policy set the payload describes, named `name`, for `environment`; throws `malformed` with the cause.
    public static func policySet(_ payload: [UInt8], name: String, environment: String) throws(PolicyBundleError) -> PolicySet {
        let p: Payload
        do { p = try JSONDecoder().decode(Payload.self, from: Data(payload)) } catch {
            // Decoding errors quote pieces of the input (keys, values): escaped and cut short like every echo.
            throw PolicyBundleError(.malformed, "the signed payload is not a PinGuard remote configuration: \(EchoedInput.bare(describe(error)))")
        }
        guard p.version == supportedVersion else {
            throw PolicyBundleError(.malformed, "payload version \(p.version) is not supported (PinGuard accepts \(supportedVersion))")
        }
        var env = PolicyEnvironment()
        for rule in p.policySet.policies {
            let pattern: HostPattern
            do { pattern = try HostPattern.parse(rule.pattern) } catch {
                throw PolicyBundleError(.malformed, "payload: \(error.message)")
            }
            env.rules.append(PatternRule(pattern: pattern, policy: try hostPolicy(rule.policy)))
        }
        env.defaultPolicy = try p.policySet.defaultPolicy.map { d throws(PolicyBundleError) in try hostPolicy(d) }
        return PolicySet(name: name, environments: [environment: env])
    }

    private static func hostPolicy(_ p: Policy) throws(PolicyBundleError) -> HostPolicy {
        var pins: [Pin] = []
        for e in p.pins {
            guard let hash = Pin.canonicalHash(e.hash) else {
                throw PolicyBundleError(.malformed, "payload: \(EchoedInput.quoted(e.hash)) is not a base64 SHA-256 hash")
            }
            pins.append(Pin(type: e.type, hash: hash, role: e.role ?? .primary, scope: e.scope ?? .any))
        }
        return HostPolicy(pins: pins, failStrategy: p.failStrategy ?? .strict, requireSystemTrust: p.requireSystemTrust ?? true,
                          allowSystemTrustFallback: p.allowSystemTrustFallback ?? false)
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): return "missing key \(EchoedInput.quoted(key.stringValue))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return "at \(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription)"
        default: return "not JSON"
        }
    }
}
