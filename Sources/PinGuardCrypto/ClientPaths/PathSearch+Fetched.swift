import COpenSSL
import Foundation
import PinGuardCore

/// The certificates one search took from downloads, and the downloads it still needs.
struct IssuerDownloadsSeen {
    /// The downloaded certificates on offer so far, indexed by `PathLink.fetched`.
    var pool: [FetchedCertificate] = []
    /// URLs asked for and not downloaded yet, or due again.
    var wanted: [String] = []
    /// URLs that could not be downloaded, with why.
    var failed: [(url: String, why: String)] = []
    /// URLs the client would download where the judgement downloads nothing (an offline command).
    var offline: [String] = []

    /// Words to append to a "no path" reason: what the client would download, and what became of it.
    var words: String {
        if let url = wanted.first(where: { u in !failed.contains { $0.url == u } }) {
            return "; the client downloads the missing issuer from \(url) (caIssuers), which pinguard has not downloaded yet"
        }
        if let f = failed.first { return "; the client would download the missing issuer from \(f.url) (caIssuers), which failed: \(f.why)" }
        if let url = offline.first {
            return "; the client would download the missing issuer from \(url) (caIssuers), which this offline judgement does not"
        }
        return ""
    }

    /// The index in the pool of the certificate at `index` of `held`, added when new.
    mutating func index(of index: Int, in held: HeldCertificates) -> Int {
        if let i = pool.firstIndex(where: { $0.held === held && $0.index == index }) { return i }
        pool.append(FetchedCertificate(held: held, index: index))
        return pool.count - 1
    }
}

/// One downloaded certificate on a path: kept alive with the response it came in while a finding names it.
struct FetchedCertificate: Sendable {
    let held: HeldCertificates
    let index: Int

    var x509: OpaquePointer { held.all[index] }
}

extension PathSearch {
    /// The downloaded certificates that could have issued `child`, from its caIssuers URLs as the client reads them
    /// (`PathStrategy.caIssuersURLs`), leaving out those on `path` and those among `known` (served or in the store).
    /// A URL not downloaded yet offers nothing in this search; it and a URL due again are wanted.
    mutating func fetchedCandidates(issuing child: OpaquePointer, excluding path: [PathLink],
                                    known: [IssuerCandidate]) -> [IssuerCandidate] {
        // Once a path is accepted the client downloads nothing (Apple goes on only when the app's pins reject it,
        // and pinguard does not download for that case).
        guard strategy.fetchesIssuers, accepted == nil else { return [] }
        let valid = IssuerCandidate(x509: child, root: nil, served: nil).valid(at: time)
        let urls = strategy.caIssuersURLs(FetchedIssuers.caIssuersURLs(of: child), certificateValid: valid)
        guard let issuers else {
            downloads.offline += urls.filter { !downloads.offline.contains($0) }
            return []
        }
        let issuerName = ClientStore.nameDER(X509_get_issuer_name(child))
        var out: [IssuerCandidate] = []
        for url in urls {
            let (entry, due) = issuers.lookup(url, at: time)
            if due && !downloads.wanted.contains(url) { downloads.wanted.append(url) }
            switch entry {
            case nil:
                break
            case .failed(let why):
                downloads.failed.append((url, why))
            case .certificates(let held):
                let before = out.count
                for (i, x) in held.all.enumerated() where ClientStore.nameDER(X509_get_subject_name(x)) == issuerName && memo.signed(child, by: x) {
                    guard !known.contains(where: { X509_cmp($0.x509, x) == 0 }),
                          !out.contains(where: { X509_cmp($0.x509, x) == 0 }) else { continue }
                    let index = downloads.index(of: i, in: held)
                    guard !path.contains(.fetched(index)) else { continue }
                    out.append(IssuerCandidate(x509: x, root: nil, served: nil, fetched: index))
                }
                // Apple takes the parents of the first URL that gives any (`SecCAIssuerCopyParents`).
                if strategy == .apple && out.count > before { return out }
            }
        }
        return out
    }
}

extension PathStrategy {
    /// Whether the client downloads a missing issuer from the caIssuers URLs of the certificate it cannot chain:
    /// Chrome (`CertIssuerSourceAia`) and Apple (`SecCAIssuerRequest`) do; Conscrypt has no such code and the
    /// JVM's own fetching is off by default (docs/client-paths.md).
    var fetchesIssuers: Bool { self == .chrome || self == .apple }

    /// The caIssuers URLs of a certificate that the client downloads, in order: http only for both (Chrome's
    /// `CanFetchUrl`, Apple's scheme check); Chrome the http ones among the first 5 (`kMaxFetchesPerCert` counts
    /// every URL); Apple none for a certificate with 10 or more (`CA_ISSUERS_REQUEST_THRESHOLD`) or not valid at
    /// the time of the check.
    func caIssuersURLs(_ all: [String], certificateValid: Bool) -> [String] {
        func http(_ urls: [String]) -> [String] { urls.filter { $0.lowercased().hasPrefix("http://") } }
        switch self {
        case .chrome: return http(Array(all.prefix(5)))
        case .apple: return all.count >= 10 || !certificateValid ? [] : http(all)
        case .conscrypt, .okhttp: return []
        }
    }
}
