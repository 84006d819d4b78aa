import Foundation

/// A `GET /probe` request: the target and, optionally, the policy sets and environment to judge it by
/// (the multi-target exporter pattern: Prometheus passes each discovered target as `?target=`).
public struct ProbeQuery: Sendable, Equatable {
    /// `HOST[:PORT]` (IPv6 as `[::1]:443`).
    public var target: String
    /// Policy sets named in `policy_set` parameters (repeatable, or comma-separated); empty: every set
    /// that covers the host.
    public var policySets: [String]
    /// `environment`, or nil for the configuration's.
    public var environment: String?
    /// The client address that asked (each address gets a share of the `/probe` slots); nil: not known.
    public var client: String?
    /// `debug=true`: answer the probe's log instead of its series (as blackbox_exporter does).
    public var debug = false

    /// Creates a query.
    public init(target: String, policySets: [String] = [], environment: String? = nil) {
        self.target = target
        self.policySets = policySets
        self.environment = environment
    }

    /// Reads the query string of a request URI (`/probe?target=a.example:443&policy_set=ios-app`), each
    /// parameter percent-decoded exactly once; nil when `target` is missing or given twice, or a parameter's
    /// percent-encoding is malformed. Repeated policy sets are kept once, in their first order.
    public init?(uri: String) {
        guard let q = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        var target: [String] = []
        var sets: [String] = []
        var environment: String?
        var debugAsked = false
        for pair in q.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.decode(kv[0]), let value = kv.count > 1 ? Self.decode(kv[1]) : "" else { return nil }
            switch key {
            case "target": target.append(value)
            case "policy_set":
                for name in value.split(separator: ",").map(String.init) where !name.isEmpty && !sets.contains(name) {
                    sets.append(name)
                }
            case "environment": environment = value.isEmpty ? nil : value
            case "debug": debugAsked = value == "true"
            default: continue
            }
        }
        guard target.count == 1, !target[0].isEmpty else { return nil }
        self.init(target: target[0], policySets: sets, environment: environment)
        debug = debugAsked
    }

    /// `+` as space, then `%XX` escapes; nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ s: Substring) -> String? {
        s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
