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

    /// Most certificates above the leaf a path may hold.
    var maxIssuers: Int {
        switch self {
        case .okhttp: 9
        case .chrome, .conscrypt, .apple: 16
        }
    }

    /// Most candidate paths tried before the search gives up (Chrome's embedder sets an iteration limit; the
    /// others are bounded here so a hostile chain cannot make the search explode).
    var iterationLimit: Int {
        switch self {
        case .chrome: 20
        case .okhttp, .conscrypt, .apple: 64
        }
    }

    /// Whether the search tries the next candidate after a path through one fails.
    var backtracks: Bool { self != .okhttp }

    /// Whether the anchor's own validity dates are checked (Chrome and Android treat the store's certificate
    /// as a name and a key; Apple checks it).
    var checksAnchorDates: Bool { self == .apple }

    /// `candidates` in the order the client tries them for the certificate `child` at `time`.
    func order(_ candidates: [IssuerCandidate], child: OpaquePointer, at time: Date) -> [IssuerCandidate] {
        switch self {
        case .okhttp, .apple:
            let anchorsLast = self == .apple
            return candidates.enumerated().sorted { a, b in
                let (x, y) = (a.element.root != nil, b.element.root != nil)
                if x != y { return anchorsLast ? !x : x }
                return a.offset < b.offset
            }.map(\.element)
        case .conscrypt:
            return candidates.enumerated().sorted { a, b in
                let (x, y) = (a.element, b.element)
                if (x.root != nil) != (y.root != nil) { return x.root != nil }
                if x.valid(at: time) != y.valid(at: time) { return x.valid(at: time) }
                if x.notBefore != y.notBefore { return x.notBefore > y.notBefore }
                return a.offset < b.offset
            }.map(\.element)
        case .chrome:
            return candidates.enumerated().sorted { a, b in
                let (x, y) = (a.element, b.element)
                if (x.root != nil) != (y.root != nil) { return x.root != nil }
                let (kx, ky) = (x.keyIDMatch(child), y.keyIDMatch(child))
                if kx != ky { return kx > ky }
                if x.notBefore != y.notBefore { return x.notBefore > y.notBefore }
                if x.notAfter != y.notAfter { return x.notAfter > y.notAfter }
                return a.offset < b.offset
            }.map(\.element)
        }
    }
}

/// A certificate that may have issued the one at the end of a path: a root of the store or a served one.
struct IssuerCandidate {
    /// The certificate.
    let x509: OpaquePointer
    /// Its index among the store's roots when the client trusts it as an anchor.
    let root: Int?
    /// Its index in the served chain when the server sent it.
    let served: Int?

    var notBefore: Date { CertificateReader.time(X509_get0_notBefore(x509)) }
    var notAfter: Date { CertificateReader.time(X509_get0_notAfter(x509)) }

    func valid(at time: Date) -> Bool { notBefore <= time && time <= notAfter }

    /// 2 when `child`'s authority key identifier names this certificate's subject key identifier, 1 when
    /// either is missing, 0 when they differ (BoringSSL's `KeyIdentifierMatch`).
    func keyIDMatch(_ child: OpaquePointer) -> Int {
        guard let aki = X509_get0_authority_key_id(child), let ski = X509_get0_subject_key_id(x509) else { return 1 }
        return ASN1_OCTET_STRING_cmp(aki, ski) == 0 ? 2 : 0
    }
}
