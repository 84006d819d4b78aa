import Foundation
import PinGuardCore
import PinGuardCrypto

/// The CRL downloads, beside the rounds: each pass takes the lists the rounds wanted (`CRLCache.takeDue`),
/// at most `maxPerPass`, and gets them `parallel` at a time: from the stored copy while it is fresh, else
/// through the guarded fetcher. Lists are read one at a time (`CRLListReader`), so however many downloads
/// run, one list's parse is the most memory a pass takes. A cancelled pass (shutdown) abandons its fetches at
/// once and records nothing for them.
public final class CRLDownloads: Sendable {
    /// The most downloads one pass starts.
    public static let maxPerPass = 256
    /// The most downloads in flight at once.
    public static let parallel = 4

    /// What is known, and wanted.
    public let cache: CRLCache
    private let fetcher: any DocumentFetching
    private let store: any FetchedDocumentStore
    private let clock: any ServiceClock
    private let reader = CRLListReader()

    /// Downloads through `fetcher` (the runtime's `Downloads`, whose settings a reload changes) into `cache`, keeping
    /// the bytes of believed lists in `store`.
    public init(cache: CRLCache, fetcher: any DocumentFetching, store: any FetchedDocumentStore, clock: any ServiceClock) {
        self.cache = cache
        self.fetcher = fetcher
        self.store = store
        self.clock = clock
    }

    /// One pass over what is due; returns the keys it finished (believed or failed), for judging again the
    /// results that name them.
    @discardableResult
    public func pass(limit: Int = CRLDownloads.maxPerPass) async -> Set<CRLCache.Key> {
        let due = await cache.takeDue(limit: limit)
        guard !due.isEmpty else { return [] }
        return await withTaskGroup(of: CRLCache.Key?.self) { group in
            var next = 0
            func start() {
                let (key, asked) = due[next]
                next += 1
                group.addTask {
                    var finish = CRLCache.Finish.abandoned
                    if !Task.isCancelled { finish = await self.download(key, asked: asked) }
                    if Task.isCancelled { finish = .abandoned }
                    await self.cache.finished(key, asked: asked, finish)
                    if case .abandoned = finish { return nil }
                    return key
                }
            }
            while next < min(Self.parallel, due.count) { start() }
            var done: Set<CRLCache.Key> = []
            for await key in group {
                if let key { done.insert(key) }
                if Task.isCancelled {
                    group.cancelAll()
                } else if next < due.count {
                    start()
                }
            }
            // Entries never started (cancelled) go back to wanted.
            for (key, asked) in due[next...] { await cache.finished(key, asked: asked, .abandoned) }
            return done
        }
    }

    /// The stored copy of `key`'s list when it is fresh and believed, else a fetch.
    func download(_ key: CRLCache.Key, asked: CRLCache.Wanted) async -> CRLCache.Finish {
        let now = clock.now
        if let stored = store.document(url: key.url), stored.freshUntil > now.timeIntervalSince1970,
           case .success(let list) = await reader.believe(stored.body, asked: asked, now: now) {
            return .believed(list)
        }
        let outcome = await fetcher.fetch(FetchRequest(url: key.url, purpose: .crl))
        if Task.isCancelled { return .abandoned }
        guard case .fetched(let document) = outcome, document.status == 200 else { return .failed(.fetchFailed) }
        let read = await reader.believe(document.body, asked: asked, now: clock.now)
        guard case .success(let list) = read else { return .failed(read.failureReason ?? .unparseable) }
        if let next = list.nextUpdate {
            store.keep(CachedDocument(url: key.url, body: document.body, fetchedAt: clock.now.timeIntervalSince1970,
                                      freshUntil: next.timeIntervalSince1970))
        }
        return .believed(list)
    }
}

/// Reads lists one at a time: an actor, so a pass's parallel downloads queue here instead of each holding a
/// parsed list of a million entries at once.
actor CRLListReader {
    /// The furthest ahead a believed list's nextUpdate may lie: 13 months.
    static let longestValidity: TimeInterval = 396 * 86_400

    /// The list of `bytes` when it verifies with the asker's issuer key, names that issuer and is current at
    /// `now`, keeping the entries of the asked serials alone.
    func believe(_ bytes: [UInt8], asked: CRLCache.Wanted, now: Date) -> Result<RevocationList, RevocationUnknown> {
        guard let key = asked.issuer.publicKeyDER else { return .failure(.badSignature) }
        let read = CRLReader.read(bytes, issuerPublicKeyDER: key, only: asked.serials)
        guard case .success(let list) = read else { return read }
        if list.issuer != asked.issuer.subject { return .failure(.wrongIssuer) }
        if list.thisUpdate > now.addingTimeInterval(RevocationJudge.clockSkew) { return .failure(.notYetValid) }
        guard let next = list.nextUpdate, next > now else { return .failure(.expired) }
        // A list held until a nextUpdate decades away would never be asked for again: the Baseline Requirements'
        // longest CRL validity is 12 months (a CA certificate's), so more than 13 ahead is no list to believe.
        guard next.timeIntervalSince(now) <= Self.longestValidity else { return .failure(.unsupported) }
        return .success(list)
    }
}

extension Result where Failure == RevocationUnknown {
    /// The reason of a failure; nil for a success.
    var failureReason: RevocationUnknown? {
        if case .failure(let reason) = self { return reason }
        return nil
    }
}
