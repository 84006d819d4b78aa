import Foundation
import NIOConcurrencyHelpers
import PinGuardConfig
import PinGuardCore
import PinGuardCrypto

/// Keeps each log list given by URL (`ct.log_lists.NAME: URL`) fresh: fetched every `ct.refresh` through the
/// one fetcher, checked (`CTLogListDownload`, `CTLogListAdmission`), kept in the store of fetched documents so a
/// restart starts from it without fetching while it is fresh. A list that fails is not taken and the one in
/// force stays (the last good fetched one, else the configured or bundled file); each problem is said once.
/// The runtime puts a taken list in force (`PinGuardRuntime.refreshDueLogLists`).
final class LogListRefresher: Sendable {
    struct State {
        /// The last good list fetched from each list's URL (its `origin` is that URL).
        var held: [CTLogListName: CTLogList] = [:]
        /// When each URL is fetched next.
        var due: [String: Date] = [:]
        /// What was last said about each URL: a problem that persists is said once.
        var said: [String: String] = [:]
        /// URLs fetched at least once by this process, or restored fresh from the store.
        var tried: Set<String> = []
        /// The fetcher of the `fetch` settings in force, made on first use and again when they change.
        var fetcher: (settings: FetchSettings, fetcher: any DocumentFetching)?
    }

    /// Makes the fetcher of `fetch` settings (the guarded fetcher in production).
    typealias FetcherMaker = @Sendable (FetchSettings) throws -> any DocumentFetching
    let makeFetcher: FetcherMaker
    let documents: any FetchedDocumentStore
    let state = NIOLockedValueBox(State())
    /// A list that could not be fetched or was refused is tried again after at most this long.
    static let retry: Double = 3_600

    init(makeFetcher: @escaping FetcherMaker, documents: any FetchedDocumentStore) {
        self.makeFetcher = makeFetcher
        self.documents = documents
    }

    /// The fetcher for `settings`, or why it cannot be made (`fetch.ca_file` holds no certificate).
    func fetcher(_ settings: FetchSettings) -> Result<any DocumentFetching, CTLogListDownload.Reason> {
        if let made = state.withLockedValue({ $0.fetcher }), made.settings == settings { return .success(made.fetcher) }
        do {
            let fetcher = try makeFetcher(settings)
            state.withLockedValue { $0.fetcher = (settings, fetcher) }
            return .success(fetcher)
        } catch {
            return .failure(.init("\(error)"))
        }
    }

    /// The downloads `loaded` asks for: each list given by URL, with its key when signed.
    static func downloads(_ loaded: LoadedConfiguration) -> [CTLogListDownload] {
        CTLogListName.allCases.compactMap { name in
            CTLogListSource(configured: loaded.config.ctLogLists[name]).url.map {
                CTLogListDownload(name: name, url: $0, key: loaded.ctLogListKeys[name])
            }
        }
    }

    /// `loaded` with the list last fetched from each of its URLs in force instead of the bundled copy: the one
    /// this process holds, else the copy in the store (checked again as if just fetched; due at once when it is
    /// no longer fresh). Unchanged when no list was fetched.
    func inForce(_ loaded: LoadedConfiguration, now: Date) -> LoadedConfiguration {
        var out = loaded
        for d in Self.downloads(loaded) {
            guard let list = held(d, bundled: loaded.config.ct.lists[d.name], now: now) else { continue }
            out.config.ct.lists[d.name] = list
        }
        guard out.config.ct != loaded.config.ct else { return loaded }
        // The list was checked to give a keyring when it was taken (`CTLogListDownload.check`).
        out.ctKeyring = try? CTSettingsLoader.keyring(out.config.ct, path: out.path)
        return out
    }

    /// The list held for `d`, restored from the store on first asking.
    private func held(_ d: CTLogListDownload, bundled: CTLogList?, now: Date) -> CTLogList? {
        if let list = state.withLockedValue({ $0.held[d.name] }), list.origin == d.url { return list }
        guard let body = documents.document(url: d.url) else { return nil }
        let signature = d.signatureURL.flatMap { documents.document(url: $0) }
        guard case .success(let list) = d.check(list: body.body, signature: signature?.body),
              CTLogListAdmission.judge(list, held: bundled) == .take else { return nil }
        state.withLockedValue { s in
            s.held[d.name] = list
            if body.freshUntil > now.timeIntervalSince1970 {
                s.due[d.url] = Date(timeIntervalSince1970: body.freshUntil)
                s.tried.insert(d.url)
            }
        }
        return list
    }

    /// The downloads of `loaded` due at `now`.
    func due(_ loaded: LoadedConfiguration, now: Date) -> [CTLogListDownload] {
        state.withLockedValue { s in Self.downloads(loaded).filter { (s.due[$0.url] ?? .distantPast) <= now } }
    }

    /// Seconds until the next download of `loaded` is due, at most a minute (a reload may add one).
    func pause(_ loaded: LoadedConfiguration, now: Date) -> Double {
        let next = state.withLockedValue { s in Self.downloads(loaded).map { s.due[$0.url] ?? now }.min() }
        return min(60, max(1, (next ?? .distantFuture).timeIntervalSince(now)))
    }

    /// Whether a stale-list warning about `name` should wait: its URL has not been tried yet.
    func awaitsFirstFetch(_ name: CTLogListName, _ loaded: LoadedConfiguration) -> Bool {
        guard let url = CTLogListSource(configured: loaded.config.ctLogLists[name]).url else { return false }
        return state.withLockedValue { !$0.tried.contains(url) }
    }

    /// Fetches `d` at `now`; the list to put in force when one was taken and differs from `current`.
    func refresh(_ d: CTLogListDownload, current: CTLogList?, settings: FetchSettings, every refresh: Double, now: Date) async -> CTLogList? {
        let outcome: CTLogListDownload.Outcome
        switch fetcher(settings) {
        case .success(let fetcher): outcome = await d.fetch(with: fetcher, now: now, refresh: refresh)
        case .failure(let reason): outcome = .failed(reason.text)
        }
        _ = state.withLockedValue { $0.tried.insert(d.url) }
        switch outcome {
        case .failed(let reason):
            notTaken(d, "not fetched: \(reason)", once: "failed", current: current, now: now, refresh: refresh)
            return nil
        case .refused(let reason):
            notTaken(d, "refused: \(reason)", once: reason, current: current, now: now, refresh: refresh)
            return nil
        case .fetched(let list, let documents):
            if case .refuse(let reason) = CTLogListAdmission.judge(list, held: current) {
                notTaken(d, "refused: \(reason)", once: "older", current: current, now: now, refresh: refresh)
                return nil
            }
            for document in documents { self.documents.keep(document) }
            state.withLockedValue { s in
                s.held[d.name] = list
                s.due[d.url] = now.addingTimeInterval(refresh)
                s.said[d.url] = nil
            }
            return list == current ? nil : list
        }
    }

    /// Says why `d` was not taken, unless the same was said since it was last taken, and schedules a retry.
    private func notTaken(_ d: CTLogListDownload, _ message: String, once key: String, current: CTLogList?, now: Date, refresh: Double) {
        let first = state.withLockedValue { s -> Bool in
            s.due[d.url] = now.addingTimeInterval(min(refresh, Self.retry))
            defer { s.said[d.url] = key }
            return s.said[d.url] != key
        }
        guard first else { return }
        let kept = current.map { "\($0.origin == "bundled" ? "the bundled copy" : $0.origin), \(RFC3339.format($0.timestamp))" } ?? "none"
        StandardError.write("pinguard: \(d.name.rawValue) CT log list \(d.url): \(message); the list in force stays (\(kept))", level: .warn)
    }
}
