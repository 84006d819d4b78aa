import COpenSSL
import Foundation
import PinGuardCore

/// How one client chooses among the certificates that could have issued the certificate at the end of its
/// path, and how far it searches, as read from its source (docs/client-paths.md).
enum PathStrategy: Sendable {
    /// Android's Conscrypt `TrustManagerImpl`: trust anchors that issued the certificate first, then the served
    /// certificates; backtracks from a path that fails validation.
    case conscrypt
    /// OkHttp's `BasicCertificateChainCleaner` (the chain its pins are checked on, a JVM client's): greedy, a
    /// trusted issuer first, else the first served certificate that signed it; no backtracking; 9 signers.
    case okhttp
    /// Chrome's path builder (BoringSSL `pki/path_builder.cc`): trusted issuers first, then a key-identifier
    /// match, then the newest notBefore; backtracks within an iteration limit.
    case chrome
    /// Apple's `SecPathBuilder`: the certificates the server sent first, then the anchors; the first path that
    /// validates.
    case apple

    /// The strategy of `client`; nil for a client judged on OpenSSL's one path.
    static func of(_ client: CTClient) -> PathStrategy? {
        switch client {
        case .android: .conscrypt
        case .jvm: .okhttp
        case .chrome: .chrome
        case .ios: .apple
        case .none: nil
        }
    }

    /// Most certificates above the leaf a path may hold (Conscrypt: 20 untrusted; OkHttp: 9 signers; Apple
    /// defines 15; Chrome sets no depth limit, its iteration limit bounds it).
    var maxIssuers: Int {
        switch self {
        case .okhttp: 9
        case .apple: 15
        case .conscrypt: 20
        case .chrome: 32
        }
    }

    /// Most complete candidate paths tried (Chrome's `kPathBuilderIterationLimit` 20; Conscrypt's budget of 2048
    /// steps; Apple's 100 paths).
    var iterationLimit: Int {
        switch self {
        case .chrome: 20
        case .apple: 100
        case .conscrypt: 2048
        case .okhttp: 9
        }
    }

    /// The strategy's own limits.
    var limits: PathLimits { PathLimits(iterations: iterationLimit, pathLength: maxIssuers + 1) }

    /// Whether the search tries the next candidate after a path through one fails.
    var backtracks: Bool { self != .okhttp }

    /// Whether the anchor's own validity dates are checked (Chrome and Android treat the store's certificate
    /// as a name and a key; Apple checks it).
    var checksAnchorDates: Bool { self == .apple }

    /// The OpenSSL security level that stands for the client's key and digest minimums: 1 (RSA from 1024 bits,
    /// EC from 160, no SHA-1) for Conscrypt, Chrome and the JVM; 2 (RSA from 2048, EC from 224; Apple's EC
    /// minimum of 256 is checked apart) for Apple.
    var securityLevel: Int32 { self == .apple ? 2 : 1 }

    /// Words to append to a "no path" reason for a client that also takes issuers it holds from earlier
    /// connections: Conscrypt's intermediate cache (`intermediateIndex`, the intermediates of every chain the
    /// app's trust manager accepted before, step 5 of `checkTrustedRecursive`), which pinguard takes as empty.
    var heldIssuersWords: String {
        self == .conscrypt
            ? " (judged as on a fresh start: Android also looks in its cache of the intermediates of chains the app accepted earlier in the same process, so a connection after one to another server may succeed)"
            : ""
    }

    /// Whether the client keeps the other paths that validate, to choose among them by the app's pins (Apple
    /// checks pins on every candidate; the others check them once, on the chosen path).
    var pinsEveryCandidate: Bool { self == .apple }

    /// `candidates` in the order the client tries them for the certificate `child` at `time`.
    func order(_ candidates: [IssuerCandidate], child: OpaquePointer, at time: Date) -> [IssuerCandidate] {
        let indexed = Array(candidates.enumerated())
        switch self {
        case .okhttp, .apple:
            // Trusted issuers first, each group in store or served order.
            return indexed.sorted { a, b in
                let (x, y) = (a.element.root != nil, b.element.root != nil)
                return x != y ? x : a.offset < b.offset
            }.map(\.element)
        case .conscrypt:
            // Anchors by `CertificatePriorityComparator`; served certificates in served order, expired ones skipped.
            let anchors = candidates.filter { $0.root != nil }.sorted { $0.conscryptPriority(over: $1) }
            return anchors + candidates.filter { $0.root == nil && $0.valid(at: time) }
        case .chrome:
            return indexed.sorted { a, b in
                let (x, y) = (a.element, b.element)
                let (cx, cy) = (x.chromeClass(child), y.chromeClass(child))
                if cx != cy { return cx < cy }
                if x.selfIssued != y.selfIssued { return x.selfIssued }
                if x.notBefore != y.notBefore { return x.notBefore > y.notBefore }
                if x.notAfter != y.notAfter { return x.notAfter > y.notAfter }
                return a.offset < b.offset
            }.map(\.element)
        }
    }
}

/// How far one search may go: candidate issuers taken (BoringSSL's iteration count), certificates in a path.
package struct PathLimits: Sendable, Equatable {
    /// Candidate issuers taken, at most.
    package var iterations: Int
    /// Certificates in one path, the leaf and the anchor included, at most.
    package var pathLength: Int

    /// Limits of `iterations` and `pathLength`.
    package init(iterations: Int, pathLength: Int) {
        self.iterations = iterations
        self.pathLength = pathLength
    }
}

/// A certificate that may have issued the one at the end of a path: a root of the store or a served one.
struct IssuerCandidate {
    /// The certificate.
    let x509: OpaquePointer
    /// Its index among the store's roots when the client's store holds it (an anchor, or a distrusted entry).
    let root: Int?
    /// Whether the store holds it as distrusted.
    var distrusted = false
    /// Its index in the served chain when the server sent it.
    let served: Int?
    /// Its index among the search's downloaded certificates when the client downloaded it (caIssuers).
    var fetched: Int? = nil

    var notBefore: Date { CertificateReader.time(X509_get0_notBefore(x509)) }
    var notAfter: Date { CertificateReader.time(X509_get0_notAfter(x509)) }

    func valid(at time: Date) -> Bool { notBefore <= time && time <= notAfter }
    var selfIssued: Bool { X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0 }

    /// Chrome's class of a candidate (`SortRemainingIssuers`): trusted with a matching key identifier 0, trusted
    /// without key-identifier data 1, untrusted matching 2, untrusted without data 3, trusted mismatching 4,
    /// untrusted mismatching 5, distrusted 6 to 8 by the same key-identifier order.
    func chromeClass(_ child: OpaquePointer) -> Int {
        let trusted = root != nil && !distrusted
        if distrusted { return 8 - keyIDMatch(child) }
        switch keyIDMatch(child) {
        case 2: return trusted ? 0 : 2
        case 1: return trusted ? 1 : 3
        default: return trusted ? 4 : 5
        }
    }

    /// Conscrypt's `CertificatePriorityComparator`: self-issued first, then EC before RSA and the larger key,
    /// then the stronger signature digest, then the newest notAfter, then the newest notBefore.
    func conscryptPriority(over other: IssuerCandidate) -> Bool {
        if selfIssued != other.selfIssued { return selfIssued }
        let (k, l) = (keyRank, other.keyRank)
        if k != l { return k > l }
        let (d, e) = (digestBits, other.digestBits)
        if d != e { return d > e }
        if notAfter != other.notAfter { return notAfter > other.notAfter }
        return notBefore > other.notBefore
    }

    /// EC keys before RSA, a larger key before a smaller one.
    var keyRank: Int {
        guard let key = X509_get0_pubkey(x509) else { return 0 }
        let bits = Int(EVP_PKEY_get_bits(key))
        return (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC ? 1 << 20 : 0) + bits
    }

    /// The bits of the signature's digest (SHA-512 512, SHA-1 160); 0 when unknown. By NID: a digest fetched by
    /// name costs OpenSSL 3 a locked lookup, and the sort asks often.
    var digestBits: Int {
        var digest: Int32 = 0, key: Int32 = 0, bits: Int32 = 0
        guard X509_get_signature_info(x509, &digest, &key, &bits, nil) == 1 else { return 0 }
        switch digest {
        case NID_sha512: return 512
        case NID_sha384: return 384
        case NID_sha256: return 256
        case NID_sha224: return 224
        case NID_sha1: return 160
        case NID_md5: return 128
        default: return 0
        }
    }

    /// 2 when `child`'s authority key identifier names this certificate's subject key identifier, 1 when
    /// either is missing, 0 when they differ (BoringSSL's `KeyIdentifierMatch`).
    func keyIDMatch(_ child: OpaquePointer) -> Int {
        guard let aki = X509_get0_authority_key_id(child), let ski = X509_get0_subject_key_id(x509) else { return 1 }
        return ASN1_OCTET_STRING_cmp(aki, ski) == 0 ? 2 : 0
    }
}
