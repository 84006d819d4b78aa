import COpenSSL
import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// Builds, for each client of its stores, the path that client builds from a served chain, version range by
/// version range, with the checks it makes (docs/client-paths.md). One judge serves every probe: the paths of
/// a chain are remembered by the chain's bytes until the first validity boundary of its certificates, so
/// 100,000 targets served a few chains search a few times; the host name is checked per probe.
public final class ClientPathJudge: @unchecked Sendable {
    /// The stores, one per client.
    public let stores: [ClientStore]
    private let lock = NSLock()
    private var remembered: [[UInt8]: (until: Date, findings: [CTClient: [(ClientVersions?, PathFinding)]])] = [:]
    /// Chains remembered at most; beyond it the memory starts again.
    let capacity: Int
    private var counts = (searches: 0, reused: 0)

    /// A judge of `stores` (one per client).
    public init(stores: [ClientStore], capacity: Int = 16_384) {
        self.stores = stores
        self.capacity = capacity
    }

    /// How many chains were searched and how many answered from memory.
    public var statistics: (searches: Int, reused: Int) { lock.withLock { counts } }

    /// The paths of `served` (leaf first, as sent) for `host` at `time`; `facts` gives the facts of a
    /// certificate at a depth (the served ones are `servedFacts`).
    package func paths(of served: [OpaquePointer], servedFacts: [ChainCertificate], host: String, at time: Date,
                       facts: (OpaquePointer, Int, CertificateSource) throws(ProbeError) -> ChainCertificate) throws(ProbeError) -> ClientPaths {
        guard !served.isEmpty, served.count == servedFacts.count else { return ClientPaths() }
        let findings = self.findings(of: served, at: time)
        let nameError = Self.nameMismatch(served[0], host: host)
        var out = ClientPaths()
        for store in stores {
            out.inUse[store.data.client] = store.data.versionsInUse
            out.versionNames[store.data.client] = store.data.versionName
            var paths: [ClientPath] = []
            for (versions, finding) in findings[store.data.client] ?? [] {
                var chain: [ChainCertificate] = []
                for (depth, link) in finding.links.enumerated() {
                    switch link {
                    case .served(let i):
                        var c = servedFacts[i]
                        c.depth = depth
                        chain.append(c)
                    case .root(let r):
                        chain.append(try facts(store.roots[r], depth, .store))
                    }
                }
                let error = finding.error ?? nameError
                paths.append(ClientPath(versions: versions, chain: chain, trusted: error == nil, reason: error,
                                        hazards: finding.hazards))
            }
            out.byClient[store.data.client] = paths
        }
        return out
    }

    /// The findings for `served` at `time`, remembered or searched.
    private func findings(of served: [OpaquePointer], at time: Date) -> [CTClient: [(ClientVersions?, PathFinding)]] {
        let key = Self.key(of: served)
        if let key, let held = lock.withLock({ remembered[key] }), time < held.until {
            lock.withLock { counts.reused += 1 }
            return held.findings
        }
        var all: [CTClient: [(ClientVersions?, PathFinding)]] = [:]
        var until = Self.firstBoundary(of: served, after: time)
        for store in stores {
            guard let strategy = PathStrategy.of(store.data.client) else { continue }
            let relevant = Self.reachableRoots(of: served, in: store)
            for r in relevant { until = min(until, Self.firstBoundary(of: [store.roots[r]], after: time)) }
            all[store.data.client] = store.segments(relevant: relevant).map { segment in
                var search = PathSearch(strategy: strategy, store: store, present: segment.present, served: served, time: time)
                var finding = search.run()
                finding.hazards = ServedChainHazards.find(served: served, finding: finding, store: store,
                                                           present: segment.present, at: time)
                return (segment.versions, finding)
            }
        }
        lock.withLock {
            counts.searches += 1
            guard let key else { return }
            if remembered.count >= capacity { remembered.removeAll(keepingCapacity: true) }
            remembered[key] = (until, all)
        }
        return all
    }

    /// The roots of `store`, in any version, that a path from `served` can reach: named as the issuer of a
    /// served certificate or of such a root, transitively.
    static func reachableRoots(of served: [OpaquePointer], in store: ClientStore) -> Set<Int> {
        var names = served.map { ClientStore.nameDER(X509_get_issuer_name($0)) }
        var found: Set<Int> = []
        while let name = names.popLast() {
            for r in store.roots(named: name) where found.insert(r).inserted {
                names.append(ClientStore.nameDER(X509_get_issuer_name(store.roots[r])))
            }
        }
        return found
    }

    /// Why `leaf` is not valid for `host` (names from the subjectAltName only); nil when it is.
    static func nameMismatch(_ leaf: OpaquePointer, host: String) -> String? {
        let matched: Bool
        if IPv6Literal.isValid(host) || inet_addr(host) != INADDR_NONE {
            matched = X509_check_ip_asc(leaf, host, 0) == 1
        } else {
            matched = X509_check_host(leaf, host, host.utf8.count, ServerVerification.hostFlags, nil) == 1
        }
        return matched ? nil : "the certificate's subjectAltName does not name \(host)"
    }

    /// SHA-256 over the served certificates' DER, each after its length; nil when one cannot be encoded.
    static func key(of served: [OpaquePointer]) -> [UInt8]? {
        var bytes: [UInt8] = []
        for x in served {
            guard let der = CertificateReader.der(of: x, encode: i2d_X509) else { return nil }
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { bytes += $0 }
            bytes += der
        }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { _ = SHA256($0.baseAddress, $0.count, &digest) }
        return digest
    }

    /// The first notBefore or notAfter of `certificates` after `time`.
    static func firstBoundary(of certificates: [OpaquePointer], after time: Date) -> Date {
        var first = Date.distantFuture
        for x in certificates {
            for t in [CertificateReader.time(X509_get0_notBefore(x)), CertificateReader.time(X509_get0_notAfter(x))]
            where t > time && t < first { first = t }
        }
        return first
    }
}
