import Foundation
import PinGuardCore

/// A URL a fetch may ask for: `https`, or `http` for a CRL; a host and a port.
struct FetchURL: Sendable {
    /// The URL as asked for.
    var text: String
    /// `http` or `https`.
    var scheme: String
    /// The host, without the brackets of an IPv6 literal, lower case.
    var host: String
    /// The port, explicit or the scheme's default.
    var port: Int

    /// A URL the fetcher would not ask for, and why.
    struct Refusal: Error {
        var reason: String
    }

    /// Parses `text` and applies the scheme rule for `purpose`.
    static func parse(_ text: String, purpose: FetchPurpose) -> Result<FetchURL, Refusal> {
        let shown = EchoedInput.quoted(text, limit: 200)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let rawHost = url.host, !rawHost.isEmpty else {
            return .failure(Refusal(reason: "\(shown) is not an http or https URL"))
        }
        guard scheme == "https" || scheme == "http" else {
            return .failure(Refusal(reason: "\(shown): only https (and http for CRLs) is fetched"))
        }
        guard scheme == "https" || purpose == .crl else {
            return .failure(Refusal(reason: "\(shown): plain http is refused for \(purpose.rawValue); only CRLs, which are signed, are fetched over http"))
        }
        guard url.user == nil, url.password == nil else {
            return .failure(Refusal(reason: "\(shown): credentials in a URL are refused"))
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        return .success(FetchURL(text: text, scheme: scheme, host: host.lowercased(), port: url.port ?? (scheme == "https" ? 443 : 80)))
    }

    /// The host of `text`, for saying a refusal once per host; the text itself when it has none.
    static func hostOf(_ text: String) -> String {
        URL(string: text)?.host?.lowercased() ?? text
    }

    /// Where a redirect response points, resolved against the URL that answered; nil when `document` is not one.
    static func redirectTarget(_ document: FetchedDocument, from current: String) -> String? {
        guard [301, 302, 303, 307, 308].contains(document.status), let location = document.headers["location"],
              let base = URL(string: current), let next = URL(string: location, relativeTo: base) else { return nil }
        return next.absoluteString
    }
}
