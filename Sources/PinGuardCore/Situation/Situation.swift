import Foundation

/// One target's problem for one app (policy set and environment), as people are told it: in an alert, the
/// journal, `probe`, `plan` and the status page, in the same words (docs/prometheus.md, One page per problem).
///
/// A target has at most one situation per app: the most urgent of what applies (`SituationAssessor`). Problems
/// of the certificate itself (it expires with nothing in place, its renewal is overdue) concern every app
/// alike and are one situation of the target, with an empty `policySet`.
public struct Situation: Sendable, Equatable {
    /// What is wrong, most urgent first.
    public enum Kind: String, Sendable, CaseIterable {
        /// An app rejects the chain served now: its users cannot connect.
        case rejected
        /// The CA revoked a certificate of the served chain that the app pins (a valid CRL lists it): the CA
        /// will not renew under it, and the app rejects whatever replaces it unless it pins another key of it.
        case revoked
        /// No address served a chain: no verdict is known.
        case probeFailing = "probe_failing"
        /// The certificate expires within its critical window and no renewal is in place.
        case expiresUnrenewed = "expires_unrenewed"
        /// The next renewal, as planned, observed or staged, breaks the app.
        case breaksAtRenewal = "breaks_at_renewal"
        /// A dated change of the app's client's store (a root added, removed or distrusted), or versions of the
        /// client not yet in use, turn the app's accept into a reject.
        case breaksOnClientUpdate = "breaks_on_client_update"
        /// The next renewal breaks the app if it brings a fresh key, and no key plan is known; safe ways exist.
        case renewalAtRisk = "renewal_at_risk"
        /// The CA asks for the certificate to be renewed now (ACME Renewal Information): critical for an app
        /// that renewal breaks, a warning for the certificate otherwise.
        case earlyRenewalRequested = "early_renewal_requested"
        /// A chain staged in `files:` would be rejected once served, while the served chain is accepted.
        case stagedRejected = "staged_rejected"
        /// The renewal is past its expected time and the old certificate is still served.
        case renewalOverdue = "renewal_overdue"
        /// Only backup pins of the app match: a rotation to the backup key happened.
        case backupPinInUse = "backup_pin_in_use"
    }

    /// How soon people must act.
    public enum Severity: String, Sendable, CaseIterable {
        /// Users fail now or within days: page.
        case critical
        /// Act within the working week: a ticket or a chat message.
        case warning
        /// Known and shown on the status page, but too far ahead to tell anyone.
        case upcoming

        /// 0 for the most urgent.
        public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// What is wrong.
    public var kind: Kind
    /// How soon to act.
    public var severity: Severity
    /// The target's name.
    public var target: String
    /// The app (policy set); empty when the situation concerns the certificate for every app.
    public var policySet: String
    /// The app's environment; empty with `policySet`.
    public var environment: String
    /// The apps a certificate-wide situation concerns (`set/environment`), or this situation's own app.
    public var apps: [String]
    /// The staged file the situation is about, or empty.
    public var file: String
    /// When users feel it: the renewal that breaks, the expiry; nil when they already do.
    public var due: Date?
    /// What is wrong, for whom and by when, with the concrete values.
    public var summary: String
    /// What to do, with the concrete values (the date, the key, the file).
    public var action: String

    /// Whether people are told (an alert, an event): critical and warning situations.
    public var isReported: Bool { severity != .upcoming }

    /// Whether `self` is more urgent than `other`: severity, then kind, then the sooner due date.
    public func isMoreUrgent(than other: Situation) -> Bool {
        if severity.rank != other.severity.rank { return severity.rank < other.severity.rank }
        let a = Kind.allCases.firstIndex(of: kind) ?? 0, b = Kind.allCases.firstIndex(of: other.kind) ?? 0
        if a != b { return a < b }
        return (due ?? .distantPast) < (other.due ?? .distantPast)
    }
}
