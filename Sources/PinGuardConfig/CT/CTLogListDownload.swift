import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardReaders

/// One fetch of a log list from its publisher (`ct.log_lists.NAME: URL`): the list and, for a signed list, its
/// detached signature (the same URL with `.sig` for `.json`), the signature checked over the list's exact
/// bytes and the list read, through the one fetcher (`DocumentFetching`). Apple's list has no signature: it is
/// believed on the strength of verified HTTPS alone.
public struct CTLogListDownload: Sendable {
    /// Which list.
    public var name: CTLogListName
    /// Where it is published.
    public var url: String
    /// The key its signature must verify with; nil for a list its publisher does not sign.
    public var key: CTLogListKey?

    /// A download of `name` from `url`, checked with `key` when given.
    public init(name: CTLogListName, url: String, key: CTLogListKey?) {
        self.name = name
        self.url = url
        self.key = key
    }

    /// The URL of the detached signature, for a signed list.
    public var signatureURL: String? { key == nil ? nil : CTLogListSource.signatureURL(of: url) }

    /// What came of one fetch.
    public enum Outcome: Sendable {
        /// The list, its signature verified, with the bodies to keep (list, then signature).
        case fetched(CTLogList, [CachedDocument])
        /// Nothing usable arrived: not fetched, refused by `fetch:`, or not a 200.
        case failed(String)
        /// It arrived and is not believed: the signature fails, or it does not read.
        case refused(String)
    }

    /// Fetches the list (and its signature) at `now`, kept fresh for `refresh` seconds.
    public func fetch(with fetcher: any DocumentFetching, now: Date, refresh: Double) async -> Outcome {
        let list: FetchedDocument
        switch await body(url, fetcher) {
        case .success(let d): list = d
        case .failure(let reason): return .failed(reason.text)
        }
        var signature: FetchedDocument?
        if let signatureURL {
            switch await body(signatureURL, fetcher) {
            case .success(let d): signature = d
            case .failure(let reason): return .failed("its signature \(signatureURL): \(reason.text)")
            }
        }
        let kept = [list, signature].compactMap { $0 }.map {
            CachedDocument(url: $0.url, body: $0.body, fetchedAt: now.timeIntervalSince1970, freshUntil: now.timeIntervalSince1970 + refresh)
        }
        switch check(list: list.body, signature: signature?.body) {
        case .success(let l): return .fetched(l, kept)
        case .failure(let reason): return .refused(reason.text)
        }
    }

    /// The list in `list`'s bytes when `signature` verifies over them (for a signed list) and they read: for a
    /// fetch, and for the copy kept in the state file, which is checked again as if just fetched.
    public func check(list: [UInt8], signature: [UInt8]?) -> Result<CTLogList, Reason> {
        if let key {
            guard let signature, key.key.verifies(list, signature: signature) else {
                return .failure(Reason("its signature does not verify with the \(key.key.summary) key in \(key.file)"))
            }
        }
        let parsed: CTLogList
        do throws(ConfigError) { parsed = try CTLogListReader.parse(list, name: name, origin: url) } catch {
            return .failure(Reason("it does not read: \(error.key.map { "\($0): " } ?? "")\(error.message)"))
        }
        // Every log's key must load, as the probe's keyring will load them all.
        do throws(ProbeError) { _ = try CTLogKeyring(logs: parsed.logs) } catch {
            return .failure(Reason("it does not read: \(error.message)"))
        }
        return .success(parsed)
    }

    /// Why a list was not taken.
    public struct Reason: Error, Sendable, Equatable {
        /// The reason, for a message.
        public var text: String
        /// A reason saying `text`.
        public init(_ text: String) { self.text = text }
    }

    private func body(_ url: String, _ fetcher: any DocumentFetching) async -> Result<FetchedDocument, Reason> {
        switch await fetcher.fetch(FetchRequest(url: url, purpose: .ctLogList)) {
        case .fetched(let d) where d.status == 200: return .success(d)
        case .fetched(let d): return .failure(Reason("HTTP \(d.status)"))
        case .refused(let why): return .failure(Reason("refused: \(why)"))
        case .failed(let why): return .failure(Reason(why))
        }
    }
}
