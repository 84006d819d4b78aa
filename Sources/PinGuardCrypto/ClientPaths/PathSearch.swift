import COpenSSL
import Foundation
import PinGuardCore

/// One link of a built path: a certificate the server sent, a root of the client's store, or a certificate the
/// client downloaded from a caIssuers URL (`PathFinding.fetched`).
enum PathLink: Sendable, Hashable {
    case served(Int)
    case root(Int)
    case fetched(Int)
}

/// What one client's search found in one range of its versions: the chosen path and why it fails, if it does.
struct PathFinding: Sendable {
    /// The path, leaf first: ending at a root when a complete path was found.
    var links: [PathLink]
    /// Why the client rejects the path; nil when it accepts it (the host name aside, checked per probe).
    var error: String?
    /// Hazards of the served chain seen on the way, in words.
    var hazards: [String]
    /// The other paths that validate, in the client's order, for a client that checks pins on every
    /// candidate (Apple): the first that the app's pins accept is the one it takes.
    var alternatives: [[PathLink]] = []
    /// The downloaded certificates that `.fetched` links name.
    var fetched: [FetchedCertificate] = []
    /// The caIssuers URLs the client would download on the way that pinguard has not downloaded yet.
    var wanted: [String] = []
}

/// The search for the path one client builds from a served chain to an anchor of its store, among the roots
/// `present` in one range of its versions, as its strategy orders candidates and bounds the search.
struct PathSearch {
    let strategy: PathStrategy
    let store: ClientStore
    let present: Set<Int>
    let served: [OpaquePointer]
    let time: Date
    private var tried = 0
    private var firstFailure: PathFinding?
    private var longest: [PathLink] = [.served(0)]
    private(set) var accepted: [PathLink]?
    private var alternatives: [[PathLink]] = []
    private var done = false
    /// Other validating paths kept at most for a client that checks pins on every candidate.
    static let maxAlternatives = 8

    let limits: PathLimits
    let memo: SearchMemo
    /// Where a client that downloads missing issuers finds them (nil: nothing is downloaded).
    let issuers: FetchedIssuers?
    var downloads = IssuerDownloadsSeen()

    init(strategy: PathStrategy, store: ClientStore, present: Set<Int>, served: [OpaquePointer], time: Date, limits: PathLimits? = nil,
         memo: SearchMemo = SearchMemo(), issuers: FetchedIssuers? = nil) {
        self.memo = memo
        self.issuers = issuers
        self.strategy = strategy
        self.limits = limits ?? strategy.limits
        self.store = store
        self.present = present
        self.served = served
        self.time = time
    }

    /// The path the client chooses: the first that validates in its order, else the first complete path that
    /// failed (with its error), else the longest partial path (no issuer found).
    mutating func run() -> PathFinding {
        var finding = choose()
        finding.fetched = downloads.pool
        finding.wanted = downloads.wanted
        return finding
    }

    private mutating func choose() -> PathFinding {
        if let r = distrustedEntry(served[0]) {
            return PathFinding(links: [.served(0)], error: "\(store.data.roots[r].subject) is distrusted by the \(store.data.client.rawValue) store", hazards: [])
        }
        if let found = extend([.served(0)]) { return found }
        if let accepted { return PathFinding(links: accepted, error: nil, hazards: [], alternatives: alternatives) }
        if let firstFailure { return firstFailure }
        let last = certificate(longest.last ?? .served(0))
        let issuer = CertificateReader.name(X509_get_issuer_name(last))
        let reason = tried >= limits.iterations
            ? "gave up after \(tried) candidate issuers (the client's search limit)"
            : "no path to a root of the \(store.data.client.rawValue) store: nothing it trusts issued \(issuer)" + downloads.words
                + strategy.heldIssuersWords
        return PathFinding(links: longest, error: reason, hazards: [])
    }

    func certificate(_ link: PathLink) -> OpaquePointer {
        switch link {
        case .served(let i): served[i]
        case .root(let i): store.roots[i]
        case .fetched(let i): downloads.pool[i].x509
        }
    }

    /// Extends `path` through each candidate issuer in the client's order; the validated path, if any.
    private mutating func extend(_ path: [PathLink]) -> PathFinding? {
        if path.count > longest.count { longest = path }
        guard !done, path.count < limits.pathLength else { return nil }
        let child = certificate(path[path.count - 1])
        let known = strategy.order(candidates(issuing: child, excluding: path), child: child, at: time)
        // A client that downloads issuers does so once no certificate it has is left to try (docs/client-paths.md).
        var pending = known[...]
        var downloaded = false
        while true {
            if pending.isEmpty && !downloaded {
                downloaded = true
                pending = strategy.order(fetchedCandidates(issuing: child, excluding: path, known: known), child: child, at: time)[...]
            }
            guard let candidate = pending.popFirst() else { break }
            guard tried < limits.iterations else { return nil }
            tried += 1
            let link: PathLink = candidate.root.map { .root($0) } ?? candidate.fetched.map { .fetched($0) } ?? .served(candidate.served ?? 0)
            let next = path + [link]
            if candidate.distrusted {
                // A distrusted entry ends the path, rejected; it beats a partial path as the reported failure.
                let why = "\(store.data.roots[candidate.root!].subject) is distrusted by the \(store.data.client.rawValue) store"
                if firstFailure == nil { firstFailure = PathFinding(links: next, error: why, hazards: []) }
            } else if candidate.root != nil {
                let error = memo.failure(of: next.map(certificate), anchor: store.data.roots[candidate.root!],
                                              strategy: strategy, publicRoots: store.data.publicRoots, at: time)
                if error == nil {
                    // A client that checks pins on every candidate goes on to the other paths that validate.
                    guard strategy.pinsEveryCandidate else { return PathFinding(links: next, error: nil, hazards: []) }
                    if accepted == nil { accepted = next } else { alternatives.append(next) }
                    if alternatives.count >= Self.maxAlternatives { done = true }
                } else if firstFailure == nil {
                    firstFailure = PathFinding(links: next, error: error, hazards: [])
                }
            } else if let found = extend(next) {
                return found
            }
            if done || !strategy.backtracks { return nil }
        }
        return nil
    }

    /// The roots present and the served certificates (not yet on the path) whose subject is `child`'s issuer
    /// and whose key verifies its signature; a served certificate that is one of the present roots is that root.
    private func candidates(issuing child: OpaquePointer, excluding path: [PathLink]) -> [IssuerCandidate] {
        let issuerName = ClientStore.nameDER(X509_get_issuer_name(child))
        var out: [IssuerCandidate] = []
        for r in store.roots(named: issuerName, in: present) where !path.contains(.root(r)) && memo.signed(child, by: store.roots[r]) {
            out.append(IssuerCandidate(x509: store.roots[r], root: r, distrusted: store.data.roots[r].distrusted, served: nil))
        }
        for (i, x) in served.enumerated().dropFirst() where !path.contains(.served(i)) {
            guard ClientStore.nameDER(X509_get_subject_name(x)) == issuerName, memo.signed(child, by: x) else { continue }
            if out.contains(where: { $0.root != nil && X509_cmp($0.x509, x) == 0 }) { continue }
            if let r = distrustedEntry(x) {
                out.append(IssuerCandidate(x509: x, root: r, distrusted: true, served: i))
                continue
            }
            out.append(IssuerCandidate(x509: x, root: nil, served: i))
        }
        return out
    }

    /// The store's distrusted entry that is `x` itself, among the roots present.
    func distrustedEntry(_ x: OpaquePointer) -> Int? {
        store.roots(named: ClientStore.nameDER(X509_get_subject_name(x)), in: present).first { r in
            store.data.roots[r].distrusted && X509_cmp(store.roots[r], x) == 0
        }
    }

    /// Whether `issuer`'s key verifies `child`'s signature.
    static func signed(_ child: OpaquePointer, by issuer: OpaquePointer) -> Bool {
        guard let key = X509_get0_pubkey(issuer) else { return false }
        let ok = X509_verify(child, key) == 1
        OpenSSLErrorQueue.clear()
        return ok
    }
}
