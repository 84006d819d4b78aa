import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardCrypto

// Issuers the clients download: Chrome and Apple fetch a missing intermediate from the caIssuers URL of the
// certificate they cannot chain. The path building that names them and the reading rules are
// PinGuardCrypto/ClientPaths (FetchedIssuers, PathSearch+Fetched); here, the downloads a round makes for the
// targets whose paths wait for them, and the probe made again with them. docs/client-paths.md says what each
// client does.

/// The caIssuers downloads of the service: the URLs a probe's paths wait for (`ClientPaths.pendingIssuers`), each
/// downloaded once however many probes wait for it at the same time, through the guarded fetcher; from the stored
/// copy while it is fresh; a download that fails falls back on the last good copy. Cancellation (shutdown)
/// abandons the downloads and records nothing for them.
public final class IssuerDownloads: Sendable {
    /// The most URLs downloaded for one probe (Chrome's 5 per certificate, a few certificates up).
    public static let maxPerProbe = 16

    /// What the searches know.
    public let issuers: FetchedIssuers
    private let fetcher: any DocumentFetching
    private let store: any FetchedDocumentStore
    private let clock: any ServiceClock
    private let inFlight = NIOLockedValueBox<[String: Task<Bool, Never>]>([:])

    /// Downloads through `fetcher` into `issuers`, keeping the responses that hold certificates in `store`.
    public init(issuers: FetchedIssuers, fetcher: any DocumentFetching, store: any FetchedDocumentStore, clock: any ServiceClock) {
        self.issuers = issuers
        self.fetcher = fetcher
        self.store = store
        self.clock = clock
    }

    /// Downloads `urls` (at most `maxPerProbe`), joining a download of the same URL already under way; true when
    /// any was recorded (certificates or a failure).
    public func download(_ urls: [String]) async -> Bool {
        let tasks = urls.prefix(Self.maxPerProbe).map { url in
            inFlight.withLockedValue { running -> Task<Bool, Never> in
                if let task = running[url] { return task }
                let task = Task {
                    let recorded = await self.record(url)
                    self.inFlight.withLockedValue { _ = $0.removeValue(forKey: url) }
                    return recorded
                }
                running[url] = task
                return task
            }
        }
        return await withTaskCancellationHandler {
            var any = false
            for task in tasks where await task.value { any = true }
            return any
        } onCancel: {
            tasks.forEach { $0.cancel() }
        }
    }

    /// Records `url`'s certificates: the stored copy while fresh, else a download, else the last good copy, else
    /// the failure. False when abandoned (cancelled).
    func record(_ url: String) async -> Bool {
        guard !Task.isCancelled else { return false }
        let now = clock.now
        let stored = store.document(url: url)
        // A fresh stored copy counts from when it was downloaded (never later than now: the store is read back as
        // untrusted input).
        if let stored, stored.freshUntil > now.timeIntervalSince1970,
           issuers.record(url, body: stored.body, at: min(now, Date(timeIntervalSince1970: stored.fetchedAt))) { return true }
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
