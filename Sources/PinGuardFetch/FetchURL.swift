import Foundation
import PinGuardCore

/// A URL a fetch may ask for: `https`, or `http` for a CRL; a host and a port.
struct FetchURL: Sendable {
    /// The URL as asked for.
    var text: String
    /// `http` or `https`.
    var scheme: String
    /// The host in its one canonical spelling (`FetchHost`), without the brackets of an IPv6 literal.
    var host: String
    /// The port, explicit or the scheme's default.
    var port: Int
    /// The request target: the path (`/` when empty) and the query, percent-encoded as written.
    var target: String
    /// The `Host` header: the canonical host (an IPv6 literal in brackets), with the port when not the scheme's default.
    var authority: String

    /// A URL the fetcher would not ask for, and why.
    struct Refusal: Error {
        var reason: String
    }

    /// Parses `text` and applies the scheme rule for `purpose`.
    static func parse(_ text: String, purpose: FetchPurpose) -> Result<FetchURL, Refusal> {
        let shown = EchoedInput.quoted(text, limit: 200)
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
              let rawHost = parts.percentEncodedHost, !rawHost.isEmpty else {
            return .failure(Refusal(reason: "\(shown) is not an http or https URL"))
        }
        guard scheme == "https" || scheme == "http" else {
            return .failure(Refusal(reason: "\(shown): only https (and http for CRLs and CA certificates) is fetched"))
        }
        guard scheme == "https" || purpose == .crl || purpose == .caIssuers else {
            return .failure(Refusal(reason: "\(shown): plain http is refused for \(purpose.rawValue); only CRLs and CA certificates, which are signed, are fetched over http"))
        }
        guard parts.percentEncodedUser == nil, parts.percentEncodedPassword == nil else {
            return .failure(Refusal(reason: "\(shown): credentials in a URL are refused"))
        }
        let host: String
        switch FetchHost.canonical(rawHost) {
        case .success(let canonical): host = canonical
        case .failure(let problem): return .failure(Refusal(reason: "\(shown): the host is refused: \(problem)"))
        }
        let port = parts.port ?? (scheme == "https" ? 443 : 80)
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let authority = port == (scheme == "https" ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
        let query = parts.percentEncodedQuery.map { "?" + $0 } ?? ""
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        guard (path + query).utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(Refusal(reason: "\(shown): a space or control byte in the path or query"))
        }
        return .success(FetchURL(text: text, scheme: scheme, host: host, port: port, target: path + query, authority: authority))
    }

    /// The host of `text`, for saying a refusal once per host; the text itself when it has none.
    static func hostOf(_ text: String) -> String {
        guard let raw = URLComponents(string: text)?.percentEncodedHost, case .success(let host) = FetchHost.canonical(raw) else {
            return EchoedInput.quoted(text, limit: 200)
        }
        return host
    }

    /// Where a redirect response points, resolved against the URL that answered; nil when `document` is not one.
    static func redirectTarget(_ document: FetchedDocument, from current: String) -> String? {
        guard [301, 302, 303, 307, 308].contains(document.status), let location = document.headers["location"],
              let base = URL(string: current), let next = URL(string: location, relativeTo: base) else { return nil }
        return next.absoluteString
    }
}
