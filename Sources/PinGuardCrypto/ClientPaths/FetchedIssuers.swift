import COpenSSL
import Foundation
import PinGuardCore

/// The issuers that clients which fetch a missing issuer (Chrome, Apple) would download from a certificate's
/// Authority Information Access caIssuers URLs, as far as pinguard has downloaded them. A search never waits on
/// the network: a URL not known yet (or due again) is named in the paths (`ClientPaths.pendingIssuers`); the
/// service's round downloads it through the guarded fetcher and probes again (PinGuardService/Issuers), and each
/// recorded URL changes the generation, so the judge searches the chains again. The reading rules are the
/// clients' (docs/client-paths.md): http URLs only; a body is one DER certificate, else a certs-only PKCS#7,
/// else the first PEM CERTIFICATE block.
public final class FetchedIssuers: @unchecked Sendable {
    /// What is known of one URL.
    enum Entry {
        case certificates(HeldCertificates)
        case failed(String)
    }

    /// How long downloaded certificates are used before they are downloaded again, and a failure before it is
    /// tried again.
    public static let refreshAfter: TimeInterval = 86_400
    public static let retryAfter: TimeInterval = 3_600

    /// URLs known at most; beyond it a new URL is not kept (its certificate stays undownloaded).
    public static let maxURLs = 8_192
    /// Certificates kept from one response at most.
    public static let maxCertificatesPerURL = 16

    private let lock = NSLock()
    private var entries: [String: (entry: Entry, at: Date)] = [:]
    private var changes = 0

    /// An empty source.
    public init() {}

    /// Changes with every URL recorded: a search made under another generation may be out of date.
    public var generation: Int { lock.withLock { changes } }

    /// What is known of `url` at `time` (nil: nothing), and whether it is due to be downloaded (again): never
    /// downloaded, its certificates `refreshAfter` old (they stand meanwhile), or its failure `retryAfter`.
    func lookup(_ url: String, at time: Date) -> (entry: Entry?, due: Bool) {
        lock.withLock {
            guard let known = entries[url] else { return (nil, true) }
            switch known.entry {
            case .certificates: return (known.entry, time.timeIntervalSince(known.at) > Self.refreshAfter)
            case .failed: return (known.entry, time.timeIntervalSince(known.at) > Self.retryAfter)
            }
        }
    }

    /// Records the certificates read from `body`, the response of `url` downloaded at `time`; false, recording
    /// nothing, when it holds none.
    public func record(_ url: String, body: [UInt8], at time: Date) -> Bool {
        let read = Self.certificates(in: body)
        guard !read.isEmpty else { return false }
        lock.withLock { keep(url, .certificates(HeldCertificates(read)), at: time) }
        return true
    }

    /// Records that `url` could not be downloaded at `time`, for `reason`.
    public func recordFailure(_ url: String, reason: String, at time: Date) {
        lock.withLock { keep(url, .failed(reason), at: time) }
    }

    /// Keeps `entry` for `url`, unless the source is full and `url` new. Called under the lock.
    private func keep(_ url: String, _ entry: Entry, at time: Date) {
        guard entries[url] != nil || entries.count < Self.maxURLs else { return }
        entries[url] = (entry, time)
        changes += 1
    }

    /// The certificates downloaded from the caIssuers URLs of `certificates` and, in turn, of those, without wanting
    /// anything: what a search may reach beyond the served certificates (at most `depth` downloads up).
    func reachable(from certificates: [OpaquePointer], depth: Int = 4) -> [HeldCertificates] {
        var found: [HeldCertificates] = []
        var level = certificates
        for _ in 0..<depth where !level.isEmpty {
            let urls = Set(level.flatMap(Self.caIssuersURLs))
            let held = lock.withLock {
                urls.compactMap { url -> HeldCertificates? in
                    if case .certificates(let h)? = entries[url]?.entry { return h } else { return nil }
                }
            }.filter { h in !found.contains { $0 === h } }
            found += held
            level = held.flatMap(\.all)
        }
        return found
    }

    /// Whether `url`'s certificates are known (downloaded and read).
    public func holds(_ url: String) -> Bool {
        lock.withLock { if case .certificates? = entries[url]?.entry { true } else { false } }
    }

    /// The certificates of a caIssuers response, owned by the caller: one DER certificate, else the certificates of
    /// a PKCS#7 SignedData, else the first PEM CERTIFICATE block (Chrome's and Apple's order); at most
    /// `maxCertificatesPerURL`.
    static func certificates(in body: [UInt8]) -> [OpaquePointer] {
        guard !body.isEmpty, body.count <= FetchPurpose.caIssuers.maxBytes else { return [] }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        // DER must be the whole body: a certificate followed by anything else is not one certificate.
        let der: OpaquePointer? = body.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress
            let x = d2i_X509(nil, &p, buffer.count)
            if let x, p != buffer.baseAddress! + buffer.count { X509_free(x); return nil }
            return x
        }
        if let der { return [der] }
        let pkcs7: UnsafeMutablePointer<PKCS7>? = body.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress
            return d2i_PKCS7(nil, &p, buffer.count)
        }
        if let pkcs7 {
            defer { PKCS7_free(pkcs7) }
            guard let stack = pg_PKCS7_signed_certificates(pkcs7) else { return [] }
            return (0..<min(Int(pg_sk_X509_num(stack)), maxCertificatesPerURL)).compactMap { i in
                guard let x = pg_sk_X509_value(stack, Int32(i)), X509_up_ref(x) == 1 else { return nil }
                return x
            }
        }
        guard let bio = body.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { return [] }
        defer { BIO_free(bio) }
        return PEM_read_bio_X509(bio, nil, nil, nil).map { [$0] } ?? []
    }

    /// The caIssuers URLs of `x509`, in the certificate's order, printable ASCII only (untrusted input).
    static func caIssuersURLs(of x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_info_access, nil, nil) else { return [] }
        let access = OpaquePointer(raw)
        defer { AUTHORITY_INFO_ACCESS_free(access) }
        var out: [String] = []
        for i in 0..<max(pg_AIA_num(access), 0) {
            if let uri = CRLExtensions.printableURI(pg_AIA_ca_issuers_uri(access, i)) { out.append(uri) }
        }
        return out
    }
}

/// Certificates owned together, freed with the last reference: a search holds the ones it uses while a newer
/// download of the same URL replaces them.
final class HeldCertificates: @unchecked Sendable {
    let all: [OpaquePointer]

    init(_ all: [OpaquePointer]) { self.all = all }

    deinit { all.forEach { X509_free($0) } }
}
