import Foundation
import NIOConcurrencyHelpers
import PinGuardCore

// Revocation's other halves: PinGuardCore/Revocation judges a certificate by a list, PinGuardCrypto/CRL reads
// and verifies the list's bytes. This folder owns the rest: what is known of each list (here), the downloads
// beside the rounds (`CRLDownloads`), the states attached to results (`RevocationChecker`) and the service's
// schedule (`PinGuardRuntime+Revocation`).

/// What is known of the CRLs the served chains name, one entry per distribution point *and issuer key*: a list
/// is believed only when it verifies with its issuer's key, so the same URL named under two CAs is two entries,
/// and one CA's failure never stands for the other's list.
///
/// Nothing here waits on the network. A round asks `known(…)`, which answers from what is held and notes what
/// it wanted; `CRLDownloads` takes the wanted entries (`takeDue`) and reports back (`finished`). A held list keeps
/// the entries of the serials asked about only (`RevocationList.covered`), so memory grows with the certificates
/// watched, not with the size of the CAs' lists; a new serial under a held list is read again from the stored
/// copy on the next download pass.
public actor CRLCache {
    /// A distribution point as one issuer's list.
    public struct Key: Hashable, Sendable, Comparable {
        /// The distribution point's URL.
        public var url: String
        /// The SHA-256 of the issuer's SubjectPublicKeyInfo that must verify the list.
        public var issuerSPKI: String

        /// Orders by URL, then issuer: the order downloads are taken in.
        public static func < (a: Key, b: Key) -> Bool { (a.url, a.issuerSPKI) < (b.url, b.issuerSPKI) }
    }

    /// A wanted list: the issuer to verify it with and the serials to keep entries for.
    public struct Wanted: Sendable {
        /// The issuer certificate (its key verifies the list, its name must be the list's issuer).
        public var issuer: ChainCertificate
        /// The serials of the certificates that asked.
        public var serials: Set<String>
    }

    /// How a download of one entry ended.
    public enum Finish: Sendable {
        /// A list was believed (read for `Wanted.serials`).
        case believed(RevocationList)
        /// No list was believed, for this reason.
        case failed(RevocationUnknown)
        /// Abandoned (shutdown): nothing learnt, the entry stays wanted.
        case abandoned
    }

    /// The first distribution points of a certificate that are asked; the rest are reported `too_many_points`.
    /// DigiCert's certificates name two (crl3 and crl4.digicert.com), the most seen among the large public CAs
    /// (Let's Encrypt's, Google Trust Services' and Sectigo's name one): twice that.
    public static let maxPointsPerCertificate = 4
    /// The most entries (distribution point and issuer) tracked at once: a fleet of 100,000 targets under the
    /// public CAs names a few thousand (CAs shard their lists: Let's Encrypt by up to 128 per intermediate).
    public static let maxEntries = 8_192

    private let clock: any ServiceClock
    /// Seconds before an entry whose last download failed is wanted again.
    public let retryAfterFailure: TimeInterval
    private var held: [Key: RevocationList] = [:]
    private var failures: [Key: (at: Date, reason: RevocationUnknown, generation: Int)] = [:]
    private var wanted: [Key: Wanted] = [:]
    private var inFlight: Set<Key> = []
    private var succeeded: [Key: Bool] = [:]
    /// Every entry held, failed or wanted: what `maxEntries` bounds.
    private var entries: Set<Key> = []
    /// Bumped when the fetch settings change: a failure under old settings does not hold back the next try.
    private let settingsGeneration = NIOLockedValueBox(0)
    private var generation: Int { settingsGeneration.withLockedValue { $0 } }

    /// An empty cache judging at `clock`'s time.
    public init(clock: any ServiceClock, retryAfterFailure: TimeInterval = 900) {
        self.clock = clock
        self.retryAfterFailure = retryAfterFailure
    }

    /// The list of `url` that answers for `serial` under `issuer`, or why none does. With `want`, a missing or
    /// stale list is noted for the next download pass (a `GET /probe` asks with `want: false`: it never fetches).
    public func known(url: String, issuer: ChainCertificate, serial: String, want: Bool = true) -> Result<RevocationList, RevocationUnknown> {
        let key = Key(url: url, issuerSPKI: issuer.spkiSHA256)
        let now = clock.now
        let current = held[key].flatMap { list in list.nextUpdate.map { $0 > now } == true ? list : nil }
        if let current, current.answers(for: serial) { return .success(current) }
        // A failure is waited out before the list is wanted again, whether it was a first read or a new serial's.
        if let failure = failures[key], failure.generation == generation,
           now.timeIntervalSince(failure.at) < retryAfterFailure { return .failure(failure.reason) }
        guard want else { return .failure(.notFetched) }
        guard entries.contains(key) || entries.count < Self.maxEntries else { return .failure(.tooManyPoints) }
        entries.insert(key)
        wanted[key, default: Wanted(issuer: issuer, serials: [])].serials.insert(serial)
        return .failure(.notFetched)
    }

    /// The wanted entries not already being downloaded, at most `limit`, marked in flight; each asks for the
    /// serials wanted and those its held copy covers, so a list read again keeps answering for both.
    public func takeDue(limit: Int) -> [(Key, Wanted)] {
        let due = wanted.keys.filter { !inFlight.contains($0) }.sorted().prefix(max(limit, 0))
        let out = due.compactMap { key in
            wanted[key].map { w in (key, Wanted(issuer: w.issuer, serials: w.serials.union(held[key]?.covered ?? []))) }
        }
        for (key, _) in out { inFlight.insert(key) }
        return out
    }

    /// Whether anything is wanted and not being downloaded.
    public var hasDue: Bool { wanted.keys.contains { !inFlight.contains($0) } }

    /// Records how the download of `key` for `asked` ended. A believed list replaces the held one unless that is
    /// current and newer (a CA's mirror serving an older list does not roll revocations back); its serials are
    /// added to the ones the held copy covers when both are the same list.
    public func finished(_ key: Key, asked: Wanted, _ finish: Finish) {
        inFlight.remove(key)
        let now = clock.now
        switch finish {
        case .abandoned:
            return
        case .believed(let list):
            failures[key] = nil
            succeeded[key] = true
            if let older = held[key], older.thisUpdate > list.thisUpdate, older.nextUpdate.map({ $0 > now }) == true {
                break
            }
            held[key] = list
        case .failed(let reason):
            failures[key] = (now, reason, generation)
            succeeded[key] = false
        }
        settle(key, asked: asked)
    }

    /// Drops from the wanted serials of `key` those `asked` covered; the entry stays wanted for serials noted
    /// while it was downloading.
    private func settle(_ key: Key, asked: Wanted) {
        guard var still = wanted[key] else { return }
        still.serials.subtract(asked.serials)
        wanted[key] = still.serials.isEmpty ? nil : still
    }

    /// From now on downloads run under new fetch settings: failures under the old ones are not waited out.
    public nonisolated func settingsChanged() {
        settingsGeneration.withLockedValue { $0 += 1 }
    }

    /// Forgets every entry whose URL no served chain names now (its series go at once), and returns the status
    /// of each distribution point still named, by URL: believed only when every issuer's list of it was.
    public func statuses(named urls: Set<String>) -> [CRLStatus] {
        for key in entries where !urls.contains(key.url) {
            entries.remove(key)
            held[key] = nil
            failures[key] = nil
            wanted[key] = nil
            succeeded[key] = nil
        }
        let byURL = Dictionary(grouping: succeeded.keys, by: \.url)
        return byURL.keys.sorted().map { url in
            let keys = byURL[url, default: []].sorted()
            return CRLStatus(url: url, nextUpdate: keys.compactMap { held[$0]?.nextUpdate }.min(),
                             lastFetchSucceeded: keys.allSatisfy { succeeded[$0] == true },
                             lastFailure: keys.lazy.compactMap { self.failures[$0]?.reason }.first)
        }
    }
}
