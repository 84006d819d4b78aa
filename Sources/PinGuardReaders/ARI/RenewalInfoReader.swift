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
        guard let url = value as? String, isPlainURL(url) else {
            throw Fault("ACME directory: renewalInfo is not a URL")
        }
        return url
    }

    /// The window of a renewal information answer: `suggestedWindow.start` before `.end`, both RFC 3339, within
    /// `plausibleYears` and at most `longestWindow` apart; `explanationURL` kept when it is a plain http or https URL
    /// (`isPlainURL`).
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
        guard plausibleYears.contains(start), plausibleYears.contains(end), end.timeIntervalSince(start) <= longestWindow else {
            throw Fault("renewal information: suggestedWindow \(RFC3339.format(start)) to \(RFC3339.format(end)) is outside any "
                        + "certificate's life (years 2015-2100, at most 398 days long)")
        }
        var window = RenewalWindow(start: start, end: end)
        if let url = object["explanationURL"] as? String, isPlainURL(url) { window.explanationURL = url }
        return window
    }

    /// The times a window may name: ARI did not exist before 2015, and no certificate issued now lives past 2100.
    static let plausibleYears = Date(timeIntervalSince1970: 1_420_070_400)...Date(timeIntervalSince1970: 4_102_444_800)
    /// The longest window believed: the CA/Browser Forum's longest certificate lifetime, 398 days.
    static let longestWindow: TimeInterval = 398 * 86_400

    /// Whether `text` is a URL to show as is: `http` or `https`, a host, at most 2048 bytes, and printable ASCII
    /// without spaces, quotes, angle brackets or other characters RFC 3986 leaves out. Text from a CA reaches
    /// logs, labels and pages: anything else is dropped, never echoed.
    public static func isPlainURL(_ text: String) -> Bool {
        guard text.utf8.count <= 2048, text.hasPrefix("https://") || text.hasPrefix("http://") else { return false }
        let excluded = Set("\"<>\\^`{|}".utf8)
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !excluded.contains($0) }) else { return false }
        return URLComponents(string: text)?.host.map { !$0.isEmpty } ?? false
    }

    private static func jsonObject(_ body: [UInt8], what: String) throws(Fault) -> [String: Any] {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(body)), let object = parsed as? [String: Any] else {
            throw Fault("\(what) is not a JSON object")
        }
        return object
    }
}
