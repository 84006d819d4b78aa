import Foundation

/// One client's trust store as bundled (`client_trust_stores.json`) or given: its roots with the versions
/// each is in, where the data comes from, and the dated changes ahead (docs/reference.md, Clients and their
/// stores). Pure data: `PinGuardCrypto`'s `ClientStore` parses the certificates.
public struct ClientStoreData: Sendable, Equatable {
    /// One root of the store.
    public struct Root: Sendable, Equatable {
        /// The certificate, DER.
        public var der: [UInt8]
        /// Base64 SHA-256 of `der`.
        public var certSHA256: String
        /// The subject, for words.
        public var subject: String
        /// The versions whose store holds it; nil: every version.
        public var versions: ClientVersions?
        /// When it entered the store, when known.
        public var added: Date?
        /// Leaves issued (notBefore) after this time are not trusted under it (Chrome Root Store's
        /// `sct_not_after`, Apple's distrust dates); nil: no such constraint.
        public var distrustAfter: Date?

        /// A root.
        public init(der: [UInt8], certSHA256: String, subject: String, versions: ClientVersions?, added: Date? = nil,
                    distrustAfter: Date? = nil) {
            self.der = der
            self.certSHA256 = certSHA256
            self.subject = subject
            self.versions = versions
            self.added = added
            self.distrustAfter = distrustAfter
        }
    }

    /// A dated change of the store: a root added at a version or on a date, removed, or distrusted.
    public struct Change: Sendable, Equatable {
        /// What happens to the root.
        public enum Kind: String, Sendable { case added, removed, distrusted }
        /// Base64 SHA-256 of the root's certificate.
        public var certSHA256: String
        /// The root's subject, for words.
        public var subject: String
        /// What happens.
        public var kind: Kind
        /// The versions the change reaches; nil: every version.
        public var versions: ClientVersions?
        /// When, when dated.
        public var date: Date?
        /// Where the change is announced.
        public var source: String

        /// A change.
        public init(certSHA256: String, subject: String, kind: Kind, versions: ClientVersions?, date: Date?, source: String) {
            self.certSHA256 = certSHA256
            self.subject = subject
            self.kind = kind
            self.versions = versions
            self.date = date
            self.source = source
        }
    }

    /// The client the store belongs to.
    public var client: CTClient
    /// How its versions are named in words: `Android API`, `iOS`, `Chrome`; empty when it has none.
    public var versionName: String
    /// Where the data comes from.
    public var source: String
    /// The date of the newest source data.
    public var sourceDate: Date
    /// Days after `sourceDate` the data counts as stale.
    public var refreshDays: Int
    /// The versions the data covers; nil: a store without versions.
    public var versionsKnown: ClientVersions?
    /// The versions still in use at `sourceDate`; nil: unknown (every known version is judged).
    public var versionsInUse: ClientVersions?
    /// The roots.
    public var roots: [Root]
    /// Dated changes.
    public var changes: [Change]

    /// A store.
    public init(client: CTClient, versionName: String, source: String, sourceDate: Date, refreshDays: Int,
                versionsKnown: ClientVersions?, versionsInUse: ClientVersions?, roots: [Root], changes: [Change] = []) {
        self.client = client
        self.versionName = versionName
        self.source = source
        self.sourceDate = sourceDate
        self.refreshDays = refreshDays
        self.versionsKnown = versionsKnown
        self.versionsInUse = versionsInUse
        self.roots = roots
        self.changes = changes
    }

    /// Whether the data is older than its refresh interval at `now`.
    public func isStale(at now: Date) -> Bool {
        now.timeIntervalSince(sourceDate) > Double(refreshDays) * 86_400
    }

    /// `Android API 24-37`, `iOS 17`, or the bare range for a client whose versions have no name.
    public func words(_ versions: ClientVersions?) -> String {
        guard let versions else { return "every version" }
        return versionName.isEmpty ? "\(versions)" : "\(versionName) \(versions)"
    }
}
