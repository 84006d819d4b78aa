import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardCrypto

// Revocation's other halves: PinGuardCore/Revocation judges a certificate by a list, PinGuardCrypto/CRL reads
// and verifies the list's bytes. This folder fetches the lists, keeps them, and attaches the states to results.

/// The CRLs of the served chains' distribution points, fetched through the one fetcher and kept until their
/// nextUpdate: in memory, verified, and in the `FetchedDocumentStore` (the state file), so a restart with a
/// list still current does not fetch it again.
///
/// Single-flight: however many chains ask for one distribution point at once, one fetch is made and every
/// asker waits for it. A list that does not verify, that names another issuer or that is past its nextUpdate
/// is never believed and never replaces the last good one; a failed fetch is retried after `retryAfterFailure`,
/// not every round.
public actor CRLCache {
    /// A list that verified with an issuer's key, and the issuer's key hash it verified with.
    struct HeldList {
        var list: RevocationList
        var issuerSPKI: String
    }

    /// What one distribution point came to: the list to judge by, or why there is none.
    public typealias Answer = Result<RevocationList, RevocationUnknown>

    /// The fetcher and how many times `use(_:)` replaced it (a reload changed `fetch:`).
    private let fetcher: NIOLockedValueBox<(any DocumentFetching, generation: Int)>
    private let store: any FetchedDocumentStore
    private let clock: any ServiceClock
    /// Seconds before a distribution point whose last fetch failed is fetched again.
    public let retryAfterFailure: TimeInterval
    /// Seconds after which a distribution point no chain asked for is forgotten (its series go).
    public let forgetAfter: TimeInterval

    private var held: [String: HeldList] = [:]
    private var inFlight: [String: Task<Answer, Never>] = [:]
    /// The last failure of each distribution point, with the fetcher generation it failed with: a failure
    /// under settings a reload has replaced does not hold back the next fetch.
    private var failures: [String: (at: Date, reason: RevocationUnknown, generation: Int)] = [:]
    private var statuses: [String: CRLStatus] = [:]
    private var lastAsked: [String: Date] = [:]

    /// Creates an empty cache that fetches through `fetcher` and keeps lists in `store`.
    public init(fetcher: any DocumentFetching, store: any FetchedDocumentStore, clock: any ServiceClock,
                retryAfterFailure: TimeInterval = 900, forgetAfter: TimeInterval = 86_400) {
        self.fetcher = NIOLockedValueBox((fetcher, generation: 0))
        self.store = store
        self.clock = clock
        self.retryAfterFailure = retryAfterFailure
        self.forgetAfter = forgetAfter
    }

    /// The current list of `url` for certificates issued by `issuer` (whose key verifies it): held, read from
    /// the store, or fetched; the reason when no list is believed.
    ///
    /// Only a scheduled round's chains (`scheduled`) make a distribution point one the cache keeps, reports and
    /// retries: a `GET /probe` of an arbitrary server uses what is held or in flight, else fetches once and
    /// keeps nothing, so a stranger's certificates add no series and no memory.
    public func list(url: String, issuer: ChainCertificate, scheduled: Bool = true) async -> Answer {
        let now = clock.now
        if scheduled { lastAsked[url] = now }
        if let answer = heldAnswer(url: url, issuer: issuer, now: now) { return answer }
        if let running = inFlight[url] { return await running.value }
        guard scheduled else { return await fetchOnce(url: url, issuer: issuer) }
        if let failure = failures[url], failure.generation == fetcher.withLockedValue({ $0.generation }),
           now.timeIntervalSince(failure.at) < retryAfterFailure { return .failure(failure.reason) }
        let task = Task { await self.refresh(url: url, issuer: issuer) }
        inFlight[url] = task
        let answer = await task.value
        inFlight[url] = nil
        return answer
    }

    /// Fetches with `fetcher` from now on (a reload changed `fetch:`); the lists held stay, as they verified.
    public nonisolated func use(_ fetcher: any DocumentFetching) {
        self.fetcher.withLockedValue { $0 = (fetcher, $0.generation + 1) }
    }

    /// The status of every distribution point asked for within `forgetAfter`, by URL.
    public func currentStatuses() -> [CRLStatus] {
        let now = clock.now
        for (url, asked) in lastAsked where now.timeIntervalSince(asked) > forgetAfter {
            lastAsked[url] = nil
            statuses[url] = nil
            held[url] = nil
            failures[url] = nil
        }
        return statuses.values.sorted { $0.url < $1.url }
    }

    /// The held list when it is current and verified with `issuer`'s key.
    private func heldAnswer(url: String, issuer: ChainCertificate, now: Date) -> Answer? {
        guard let h = held[url], h.issuerSPKI == issuer.spkiSHA256, let next = h.list.nextUpdate, next > now else { return nil }
        return .success(h.list)
    }

    /// The stored copy when it is still fresh and believed, else a fetch.
    private func refresh(url: String, issuer: ChainCertificate) async -> Answer {
        let now = clock.now
        if let stored = store.document(url: url), stored.freshUntil > now.timeIntervalSince1970,
           case .success(let list) = believe(stored.body, issuer: issuer, now: now) {
            keep(list, url: url, issuer: issuer, body: nil, now: now)
            return .success(list)
        }
        return await fetch(url: url, issuer: issuer)
    }

    /// Fetches `url`: the list when it is believed, else why not (the last good list answers meanwhile while
    /// it is current).
    private func fetch(url: String, issuer: ChainCertificate) async -> Answer {
        let (current, generation) = fetcher.withLockedValue { $0 }
        let outcome = await current.fetch(FetchRequest(url: url, purpose: .crl))
        let now = clock.now
        guard case .fetched(let document) = outcome, document.status == 200 else {
            return failed(url, .fetchFailed, issuer: issuer, generation: generation, now: now)
        }
        switch believe(document.body, issuer: issuer, now: now) {
        case .success(let list): return accepted(list, body: document.body, url: url, issuer: issuer, now: now)
        case .failure(let reason): return failed(url, reason, issuer: issuer, generation: generation, now: now)
        }
    }

    /// A fetched list that was believed: kept, unless the list held is current and newer (a CA's mirror
    /// serving an older list does not roll revocations back).
    private func accepted(_ list: RevocationList, body: [UInt8], url: String, issuer: ChainCertificate, now: Date) -> Answer {
        failures[url] = nil
        if let older = held[url]?.list, older.thisUpdate > list.thisUpdate, heldAnswer(url: url, issuer: issuer, now: now) != nil {
            statuses[url] = CRLStatus(url: url, nextUpdate: older.nextUpdate, lastFetchSucceeded: true)
            return .success(older)
        }
        keep(list, url: url, issuer: issuer, body: body, now: now)
        return .success(list)
    }

    /// A fetch that brought no list to believe: remembered (retried after `retryAfterFailure`) and reported;
    /// the last good list answers while it is current.
    private func failed(_ url: String, _ reason: RevocationUnknown, issuer: ChainCertificate, generation: Int, now: Date) -> Answer {
        failures[url] = (now, reason, generation)
        statuses[url] = CRLStatus(url: url, nextUpdate: held[url]?.list.nextUpdate, lastFetchSucceeded: false, lastFailure: reason)
        return heldAnswer(url: url, issuer: issuer, now: now) ?? .failure(reason)
    }

    /// One fetch whose list is judged and forgotten (a `GET /probe`).
    private func fetchOnce(url: String, issuer: ChainCertificate) async -> Answer {
        guard case .fetched(let document) = await fetcher.withLockedValue({ $0.0 }).fetch(FetchRequest(url: url, purpose: .crl)),
              document.status == 200 else {
            return .failure(.fetchFailed)
        }
        return believe(document.body, issuer: issuer, now: clock.now)
    }

    /// The list of `bytes` when it verifies with `issuer`'s key, names `issuer` and is current at `now`.
    private func believe(_ bytes: [UInt8], issuer: ChainCertificate, now: Date) -> Answer {
        guard let key = issuer.publicKeyDER else { return .failure(.badSignature) }
        let read = CRLReader.read(bytes, issuerPublicKeyDER: key)
        guard case .success(let list) = read else { return read }
        if list.issuer != issuer.subject { return .failure(.wrongIssuer) }
        if list.thisUpdate > now.addingTimeInterval(RevocationJudge.clockSkew) { return .failure(.notYetValid) }
        guard let next = list.nextUpdate, next > now else { return .failure(.expired) }
        return .success(list)
    }

    /// Holds `list` and reports it; writes `body` to the store (nil: it came from there) until its nextUpdate.
    private func keep(_ list: RevocationList, url: String, issuer: ChainCertificate, body: [UInt8]?, now: Date) {
        held[url] = HeldList(list: list, issuerSPKI: issuer.spkiSHA256)
        statuses[url] = CRLStatus(url: url, nextUpdate: list.nextUpdate, lastFetchSucceeded: true)
        if let body, let next = list.nextUpdate {
            store.keep(CachedDocument(url: url, body: body, fetchedAt: now.timeIntervalSince1970, freshUntil: next.timeIntervalSince1970))
        }
    }
}
