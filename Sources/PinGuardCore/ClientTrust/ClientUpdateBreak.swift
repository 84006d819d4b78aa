import Foundation

/// A change ahead in a client's store that breaks an app accepted today: a root added at a known version or
/// on a known date, removed, or distrusted, or the store of a version not yet in use (docs/reference.md,
/// Clients and their stores). It becomes the situation `breaks_on_client_update`.
public struct ClientUpdateBreak: Sendable, Equatable {
    /// The client whose store changes.
    public var client: CTClient
    /// The change; nil when the break is the store of versions beyond those in use.
    public var change: ClientStoreData.Change?
    /// The decision on the versions the change reaches, once it is made.
    public var verdict: VersionVerdict

    /// A break of `client` by `change`.
    public init(client: CTClient, change: ClientStoreData.Change?, verdict: VersionVerdict) {
        self.client = client
        self.change = change
        self.verdict = verdict
    }

    /// When the change reaches clients, when dated.
    public var date: Date? { change?.date }

    /// "its store gains CN=Root YE on 2027-01-15" / "versions not yet in use".
    public var changeWords: String {
        guard let change else { return "\(verdict.versionWords), not yet in use, ships" }
        let when = change.date.map { " on \(SituationWords.day($0))" } ?? ""
        switch change.kind {
        case .added: return "its store gains \(change.subject)\(when)"
        case .removed: return "its store drops \(change.subject)\(when)"
        case .distrusted: return "its store distrusts \(change.subject) for certificates issued after\(when.isEmpty ? " a date" : when)"
        }
    }
}

/// A store change ahead and the paths the client builds once it is made.
public struct UpcomingStoreChange: Sendable, Equatable {
    /// The change.
    public var change: ClientStoreData.Change
    /// The client's paths from the same served chain in the changed store.
    public var paths: [ClientPath]

    /// The paths after `change`.
    public init(change: ClientStoreData.Change, paths: [ClientPath]) {
        self.change = change
        self.paths = paths
    }
}
