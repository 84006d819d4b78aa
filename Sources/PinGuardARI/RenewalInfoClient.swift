import Foundation
import PinGuardCore
import PinGuardReaders

/// What one check of a certificate's renewal information concluded, and when to check again.
public enum RenewalInfoAnswer: Sendable, Equatable {
    /// The CA's window, until `recheck`.
    case window(RenewalWindow, recheck: Date)
    /// The CA does not know the certificate (404), or its directory offers no renewal information: no window, no error.
    case none(recheck: Date)
    /// The directory or the window could not be fetched or read; `recheck` backs off.
    case failed(String, recheck: Date)
}

/// Asks an ACME server for one certificate's renewal window (RFC 9773 §4.1) through the guarded fetcher:
/// the directory for its `renewalInfo` URL (kept a day), then `renewalInfo/CERT-ID`, kept until its
/// `Retry-After` (1 minute..1 day). Both are kept in the `FetchedDocumentStore`, so a restart reads them back
/// (as untrusted as a fresh answer) instead of asking again.
public struct RenewalInfoClient: Sendable {
    /// How long a directory is used before it is fetched again.
    public static let directoryLifetime: Double = 86_400

    let fetcher: any DocumentFetching
    let store: any FetchedDocumentStore

    /// A client fetching through `fetcher` and keeping answers in `store`.
    public init(fetcher: any DocumentFetching, store: any FetchedDocumentStore) {
        self.fetcher = fetcher
        self.store = store
    }

    /// The window of certificate `certID` at the CA whose ACME directory is `directory`, at `now`; `failures`
    /// is how many checks in a row failed before (for the backoff).
    public func check(certID: String, directory: String, failures: Int, now: Date) async -> RenewalInfoAnswer {
        let base: String
        switch await renewalInfoBase(directory, now: now) {
        case .success(let url?): base = url
        case .success(nil): return .none(recheck: now.addingTimeInterval(Self.directoryLifetime))
        case .failure(let fault): return .failed(fault.description, recheck: backoff(failures, now))
        }
        let url = (base.hasSuffix("/") ? base : base + "/") + certID
        if let kept = store.document(url: url), kept.freshUntil > now.timeIntervalSince1970 {
            return answer(kept.body, recheck: Date(timeIntervalSince1970: kept.freshUntil), failures: failures, now: now)
        }
        switch await fetcher.fetch(FetchRequest(url: url, purpose: .renewalInfo)) {
        case .refused(let reason), .failed(let reason):
            return .failed(reason, recheck: backoff(failures, now))
        case .fetched(let document):
            let wait = RenewalInfoSchedule.wait(retryAfter: document.headers["retry-after"], now: now)
            let recheck = now.addingTimeInterval(wait)
            guard document.status == 200 || document.status == 404 else {
                return .failed("\(url): HTTP \(document.status)", recheck: backoff(failures, now))
            }
            // A 404 is kept as an empty body: the CA does not know the certificate.
            let body = document.status == 404 ? [] : document.body
            store.keep(CachedDocument(url: url, body: body, fetchedAt: now.timeIntervalSince1970, freshUntil: recheck.timeIntervalSince1970))
            return answer(body, recheck: recheck, failures: failures, now: now)
        }
    }

    private func answer(_ body: [UInt8], recheck: Date, failures: Int, now: Date) -> RenewalInfoAnswer {
        guard !body.isEmpty else { return .none(recheck: recheck) }
        do {
            return .window(try RenewalInfoReader.window(body), recheck: recheck)
        } catch {
            return .failed(error.description, recheck: backoff(failures, now))
        }
    }

    private func backoff(_ failures: Int, _ now: Date) -> Date {
        now.addingTimeInterval(RenewalInfoSchedule.backoff(failures: failures + 1))
    }

    /// The directory's `renewalInfo` URL (nil when it offers none), from the store while fresh.
    private func renewalInfoBase(_ directory: String, now: Date) async -> Result<String?, RenewalInfoReader.Fault> {
        if let kept = store.document(url: directory), kept.freshUntil > now.timeIntervalSince1970,
           let url = try? RenewalInfoReader.renewalInfoURL(directory: kept.body) {
            return .success(url)
        }
        switch await fetcher.fetch(FetchRequest(url: directory, purpose: .acmeDirectory)) {
        case .refused(let reason), .failed(let reason):
            return .failure(RenewalInfoReader.Fault(reason))
        case .fetched(let document):
            guard document.status == 200 else { return .failure(RenewalInfoReader.Fault("\(directory): HTTP \(document.status)")) }
            do {
                let url = try RenewalInfoReader.renewalInfoURL(directory: document.body)
                store.keep(CachedDocument(url: directory, body: document.body, fetchedAt: now.timeIntervalSince1970,
                                          freshUntil: now.timeIntervalSince1970 + Self.directoryLifetime))
                return .success(url)
            } catch {
                return .failure(error)
            }
        }
    }
}
