import Foundation

/// The path one client builds from a served chain to an anchor of its own store, for the versions of the
/// client whose store gives that path (docs/client-paths.md).
public struct ClientPath: Sendable, Equatable {
    /// The versions this path holds for; nil: every version (a store without versions, or `trust.ca_file`).
    public var versions: ClientVersions?
    /// The path, leaf first, ending at the anchor when `trusted`; the certificates the client got to
    /// before it gave up when not.
    public var chain: [ChainCertificate]
    /// Whether the client accepts the path (its store, its checks, its name check).
    public var trusted: Bool
    /// Why the client rejects the chain, in its terms, when it does.
    public var reason: String?
    /// Hazards of the served chain for this client that did not stop it (an expired cross-sign it
    /// skipped, say): words for reports.
    public var hazards: [String]
    /// Other paths the client accepts, in its order, for a client that checks the app's pins on every candidate
    /// (Apple): the first the pins accept is the one it takes. Empty for the others.
    public var alternatives: [[ChainCertificate]] = []
    /// For a trusted path, the date after which the client's store no longer trusts leaves issued under its
    /// anchor (Chrome Root Store's `sct_not_after`, Apple's distrust dates), in force or announced among the
    /// store's changes ahead; nil: none. The forecast judges the next leaf against it.
    public var anchorDistrustAfter: Date?

    /// A path for `versions`.
    public init(versions: ClientVersions?, chain: [ChainCertificate], trusted: Bool, reason: String? = nil,
                hazards: [String] = []) {
        self.versions = versions
        self.chain = chain
        self.trusted = trusted
        self.reason = reason
        self.hazards = hazards
    }

    /// The SHA-256 of the anchor's certificate, when the path is trusted.
    public var anchor: String? { trusted ? chain.last?.certSHA256 : nil }
}

/// The paths each client builds from one served chain: by client, the version ranges in order.
public struct ClientPaths: Sendable, Equatable {
    /// Paths by client; a client missing here was not judged on a path of its own.
    public var byClient: [CTClient: [ClientPath]]
    /// The versions of each client still in use, judged when a policy set names no `client_versions`.
    public var inUse: [CTClient: ClientVersions]
    /// How each client's versions are named in words (`Android API`, `iOS`, `Chrome`).
    public var versionNames: [CTClient: String] = [:]
    /// The dated changes ahead in each client's store that reach a root this chain can reach, with the paths
    /// once each is made.
    public var upcoming: [CTClient: [UpcomingStoreChange]] = [:]
    /// The caIssuers URLs a client would download for this chain that pinguard has not downloaded yet: the paths
    /// through them are judged once they are (docs/reference.md, Issuers the clients download).
    public var pendingIssuers: [String] = []

    /// Paths by client, with the versions of each client in use.
    public init(byClient: [CTClient: [ClientPath]] = [:], inUse: [CTClient: ClientVersions] = [:]) {
        self.byClient = byClient
        self.inUse = inUse
    }

    /// Whether no client has a path of its own.
    public var isEmpty: Bool { byClient.isEmpty }
}

extension TargetProbe {
    /// How many times one target is probed again after downloads, each reaching one issuer further up.
    public static let maxIssuerDepth = 4

    /// The caIssuers URLs the client paths of every address wait for, in order, once each.
    public var pendingIssuers: [String] {
        var out: [String] = []
        for url in nodes.flatMap(\.clientPaths.pendingIssuers) where !out.contains(url) { out.append(url) }
        return out
    }

    /// This probe, probed again by `again` after `download` recorded the URLs its paths wait for, until none is
    /// left, nothing more was recorded, or the task is cancelled (at most `maxIssuerDepth` times): what a round of
    /// the service and `pinguard probe` both do.
    public func resolvingIssuers<Failure: Error>(download: ([String]) async throws(Failure) -> Bool,
                                                 again: () async -> TargetProbe?) async throws(Failure) -> TargetProbe {
        var probe = self
        for _ in 0..<Self.maxIssuerDepth {
            let urls = probe.pendingIssuers
            guard !urls.isEmpty, try await download(urls), !Task.isCancelled, let next = await again() else { break }
            probe = next
        }
        return probe
    }
}
