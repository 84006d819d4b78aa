import Foundation

/// The times of a certificate's life that alerts are measured against, relative to its own lifetime and its
/// expected renewal, never a fixed number of days (docs/prometheus.md, Time relative to the certificate).
public struct CertificateSchedule: Sendable, Equatable {
    /// The leaf's notBefore.
    public var notBefore: Date
    /// The notAfter that matters: the earliest of the chain's.
    public var notAfter: Date
    /// When the renewal is expected (`renewal.before`, else a third of the lifetime before notAfter).
    public var renewal: Date

    static let day: TimeInterval = 86_400

    /// Creates the schedule of a served chain.
    public init(notBefore: Date, notAfter: Date, renewal: Date) {
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.renewal = renewal
    }

    /// The leaf's lifetime (0 for a malformed one).
    public var lifetime: TimeInterval { max(notAfter.timeIntervalSince(notBefore), 0) }

    /// Time left before notAfter within which a certificate with no renewal in place is critical: 7 days or a
    /// quarter of the lifetime, whichever is shorter.
    public var criticalWindow: TimeInterval { min(7 * Self.day, lifetime / 4) }

    /// How long after the expected renewal the old certificate may still be served before the renewal counts
    /// as overdue: a day or a 24th of the lifetime, whichever is shorter (a renewal job runs a few times a day).
    public var overdueGrace: TimeInterval { min(Self.day, lifetime / 24) }

    /// When the renewal becomes overdue.
    public var overdueAt: Date { renewal.addingTimeInterval(overdueGrace) }

    /// When the critical window opens.
    public var criticalAt: Date { notAfter.addingTimeInterval(-criticalWindow) }

    /// Whether the renewal is overdue at `now`.
    public func isOverdue(at now: Date) -> Bool { now >= overdueAt }

    /// Whether the certificate is within its critical window (or expired) at `now`.
    public func isCritical(at now: Date) -> Bool { now >= criticalAt }
}
