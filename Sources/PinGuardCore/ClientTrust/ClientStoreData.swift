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
        /// The store holds the certificate as distrusted: a path that reaches it ends there, rejected.
        public var distrusted = false

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
        /// The root's certificate, DER, when the data holds it (an added root's always does).
        public var der: [UInt8]?

        /// A change.
        public init(certSHA256: String, subject: String, kind: Kind, versions: ClientVersions?, date: Date?, source: String,
                    der: [UInt8]? = nil) {
            self.der = der
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
    /// Whether the roots are a public root program's (the bundled stores): the clients then apply their rules
    /// for publicly trusted certificates (Apple's and Chrome's 398-day limit); false for `trust.ca_file`.
    public var publicRoots: Bool

    /// A store.
    public init(client: CTClient, versionName: String, source: String, sourceDate: Date, refreshDays: Int,
                versionsKnown: ClientVersions?, versionsInUse: ClientVersions?, roots: [Root], changes: [Change] = [],
                publicRoots: Bool = true) {
        self.publicRoots = publicRoots
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

    /// The store once `change` is made: an added root held for the change's versions (from its date on, the
    /// data's known versions when it names none), a removed one no longer held there, a distrusted one with
    /// the change's date as its distrust date; nil when the change cannot be applied (an added root whose
    /// certificate the data lacks, a root it does not hold).
    public func after(_ change: Change) -> ClientStoreData? {
        var out = self
        out.changes = []
        let index = roots.firstIndex { $0.certSHA256 == change.certSHA256 }
        switch change.kind {
        case .added:
            guard index == nil, let der = change.der else { return nil }
            out.roots.append(Root(der: der, certSHA256: change.certSHA256, subject: change.subject,
                                  versions: change.versions ?? versionsKnown, added: change.date))
        case .removed:
            guard let index else { return nil }
            out.roots.remove(at: index)
            if let cut = change.versions, cut.lower > (roots[index].versions?.lower ?? 0) {
                var kept = roots[index]
                kept.versions = ClientVersions(lower: roots[index].versions?.lower ?? 0, upper: cut.lower - 1)
                out.roots.append(kept)
            }
        case .distrusted:
            guard let index, let date = change.date else { return nil }
            out.roots[index].distrustAfter = date
        }
        return out
    }

    /// The store as it stands at `now`: every dated change on or before `now` made (a change that cannot be
    /// applied is dropped), the later and undated ones kept as changes ahead.
    public func applying(through now: Date) -> ClientStoreData {
        var out = self
        out.changes = []
        for change in changes.sorted(by: { ($0.date ?? .distantFuture) < ($1.date ?? .distantFuture) }) {
            guard let date = change.date, date <= now else {
                out.changes.append(change)
                continue
            }
            if let applied = out.after(change) {
                let ahead = out.changes
                out = applied
                out.changes = ahead
            }
        }
        return out
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
