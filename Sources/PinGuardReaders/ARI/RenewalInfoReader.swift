import Foundation
import PinGuardCore

/// Reads what an ACME server answers (untrusted JSON, already capped in size by the fetcher): the
/// directory's `renewalInfo` URL (RFC 8555 §7.1.1, RFC 9773 §3) and a renewal window (RFC 9773 §4.2).
public enum RenewalInfoReader {
    /// Why an answer was not understood.
    public struct Fault: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, quoting at most a short piece of the input.
        public let description: String
        /// A fault saying `description`.
        public init(_ description: String) { self.description = description }
    }

    /// The `renewalInfo` URL of an ACME directory; nil when the server offers no renewal information.
    public static func renewalInfoURL(directory body: [UInt8]) throws(Fault) -> String? {
        let object = try jsonObject(body, what: "ACME directory")
        guard let value = object["renewalInfo"] else { return nil }
        guard let url = value as? String, url.hasPrefix("https://") || url.hasPrefix("http://"), url.utf8.count <= 2048 else {
            throw Fault("ACME directory: renewalInfo is not a URL")
        }
        return url
    }

    /// The window of a renewal information answer: `suggestedWindow.start` before `.end`, both RFC 3339;
    /// `explanationURL` kept when it is an https or http URL of at most 2048 bytes.
    public static func window(_ body: [UInt8]) throws(Fault) -> RenewalWindow {
        let object = try jsonObject(body, what: "renewal information")
        guard let suggested = object["suggestedWindow"] as? [String: Any],
              let startText = suggested["start"] as? String, let endText = suggested["end"] as? String else {
            throw Fault("renewal information has no suggestedWindow with start and end")
        }
        guard let start = RFC3339.parse(startText), let end = RFC3339.parse(endText) else {
            throw Fault("renewal information: suggestedWindow start or end is not an RFC 3339 time")
        }
        guard start < end else { throw Fault("renewal information: suggestedWindow ends before it starts") }
        var window = RenewalWindow(start: start, end: end)
        if let url = object["explanationURL"] as? String, url.utf8.count <= 2048,
           url.hasPrefix("https://") || url.hasPrefix("http://") {
            window.explanationURL = url
        }
        return window
    }

    private static func jsonObject(_ body: [UInt8], what: String) throws(Fault) -> [String: Any] {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(body)), let object = parsed as? [String: Any] else {
            throw Fault("\(what) is not a JSON object")
        }
        return object
    }
}
