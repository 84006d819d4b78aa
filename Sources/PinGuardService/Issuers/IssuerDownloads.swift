import Foundation
import PinGuardCore
import PinGuardCrypto

// Issuers the clients download: Chrome and Apple fetch a missing intermediate from the caIssuers URL of the
// certificate they cannot chain. The path building that asks for them and the reading rules are
// PinGuardCrypto/ClientPaths (FetchedIssuers, PathSearch+Fetched); here, the downloads beside the rounds and the
// probes made again once they arrive (PinGuardRuntime+Issuers). docs/client-paths.md says what each client does.

/// The caIssuers downloads, beside the rounds: each pass takes the URLs the searches wanted, at most `maxPerPass`,
/// `parallel` at a time, through the guarded fetcher; from the stored copy while it is fresh; a download that
/// fails falls back on the last good copy. A cancelled pass (shutdown) abandons its fetches and records nothing
/// for them.
public final class IssuerDownloads: Sendable {
    /// The most downloads one pass starts.
    public static let maxPerPass = 64
    /// The most downloads in flight at once.
    public static let parallel = 4

    /// What the searches know and want.
    public let issuers: FetchedIssuers
    private let fetcher: any DocumentFetching
    private let store: any FetchedDocumentStore
    private let clock: any ServiceClock

    /// Downloads through `fetcher` into `issuers`, keeping the responses that hold certificates in `store`.
    public init(issuers: FetchedIssuers, fetcher: any DocumentFetching, store: any FetchedDocumentStore, clock: any ServiceClock) {
        self.issuers = issuers
        self.fetcher = fetcher
        self.store = store
        self.clock = clock
    }

    /// One pass over the wanted URLs; returns those it recorded (certificates or a failure).
    @discardableResult
    public func pass(limit: Int = IssuerDownloads.maxPerPass) async -> Set<String> {
        let due = issuers.takeWanted(limit: limit)
        guard !due.isEmpty else { return [] }
        return await withTaskGroup(of: String?.self) { group in
            var next = 0
            func start() {
                let url = due[next]
                next += 1
                group.addTask { await self.download(url) ? url : nil }
            }
            while next < min(Self.parallel, due.count) { start() }
            var done: Set<String> = []
            for await url in group {
                if let url { done.insert(url) }
                if Task.isCancelled {
                    group.cancelAll()
                } else if next < due.count {
                    start()
                }
            }
            return done
        }
    }

    /// Records `url`'s certificates: the stored copy while fresh, else a download, else the last good copy, else
    /// the failure. False when abandoned (cancelled): the URL is wanted again at its next lookup.
    func download(_ url: String) async -> Bool {
        guard !Task.isCancelled else { return false }
        let now = clock.now
        let stored = store.document(url: url)
        if let stored, stored.freshUntil > now.timeIntervalSince1970, issuers.record(url, body: stored.body, at: now) { return true }
        let outcome = await fetcher.fetch(FetchRequest(url: url, purpose: .caIssuers))
        if Task.isCancelled { return false }
        let failure: String
        switch outcome {
        case .fetched(let document) where document.status == 200:
            if issuers.record(url, body: document.body, at: clock.now) {
                let at = clock.now.timeIntervalSince1970
                store.keep(CachedDocument(url: url, body: document.body, fetchedAt: at, freshUntil: at + FetchedIssuers.refreshAfter))
                return true
            }
            failure = "the response holds no certificate (DER, certs-only PKCS#7 or PEM)"
        case .fetched(let document): failure = "HTTP status \(document.status)"
        case .refused(let why), .failed(let why): failure = why
        }
        // The last good copy stands while downloads fail.
        if let stored, issuers.record(url, body: stored.body, at: clock.now) { return true }
        issuers.recordFailure(url, reason: failure, at: clock.now)
        return true
    }
}
