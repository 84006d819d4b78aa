import Foundation
import PinGuardCore

/// The query of the status page: which app and environment to show, and which page of rows.
public struct StatusQuery: Equatable, Sendable {
    /// Only this policy set (app), when given.
    public var app: String?
    /// Only this environment, when given.
    public var environment: String?
    /// The page of rows, from 1.
    public var page = 1

    /// Reads `?app=NAME&environment=ENV&page=N` (unknown parameters and malformed values are ignored).
    public init(uri: String) {
        guard let q = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return }
        for pair in q.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, let value = kv[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  !value.isEmpty else { continue }
            switch kv[0] {
            case "app": app = value
            case "environment": environment = value
            case "page": page = max(1, min(Int(value) ?? 1, 1_000_000))
            default: continue
            }
        }
    }

    /// This query's parameters with `page` replaced, as a link's query string.
    func link(page: Int) -> String {
        var parts: [String] = []
        if let app { parts.append("app=" + Self.encode(app)) }
        if let environment { parts.append("environment=" + Self.encode(environment)) }
        parts.append("page=\(page)")
        return "/?" + parts.joined(separator: "&")
    }

    static func encode(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }
}
