import Foundation

/// The renewal window a CA suggests for one certificate (RFC 9773 §4.2), with where it came from.
public struct RenewalWindow: Sendable, Equatable {
    /// The window's start: the forecast's next renewal.
    public var start: Date
    /// The window's end.
    public var end: Date
    /// The CA's explanation of an unusual window (an incident, a revocation), when it gave one.
    public var explanationURL: String?

    /// Creates a window.
    public init(start: Date, end: Date, explanationURL: String? = nil) {
        self.start = start
        self.end = end
        self.explanationURL = explanationURL
    }

    /// Whether the CA asks for a renewal sooner than planned: the window ended before `now`, or it carries
    /// an explanation. Every ACME client that reads ARI renews within hours then.
    public func asksEarlyRenewal(now: Date) -> Bool {
        end <= now || explanationURL != nil
    }
}
