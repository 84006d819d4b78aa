import COpenSSL
import Foundation
import PinGuardCore

/// Builds, for each client of its stores, the path that client builds from a served chain, version range by
/// version range, with the checks it makes (docs/client-paths.md). One judge serves every probe: the paths of
/// a chain are remembered by the chain's bytes until the first validity boundary of its certificates, so
/// 100,000 targets served a few chains search a few times; the host name is checked per probe.
/// The other halves: the stores' data, the verdicts per version and the situations in PinGuardCore/ClientTrust,
/// the bundled stores and their loading in PinGuardConfig/ClientTrust, the service's warning in
/// PinGuardService/ClientTrust.
public final class ClientPathJudge: @unchecked Sendable {
    /// The stores, one per client.
    public let stores: [ClientStore]
    /// Each store once each of its dated changes is made.
    let changed: [(store: ClientStore, change: ClientStoreData.Change, after: ClientStore)]
    private let lock = NSLock()
    private var remembered: [[UInt8]: (until: Date, generation: Int, findings: ChainFindings)] = [:]
    /// Findings that stand for sibling leaves, by the certificates above the leaf (`SiblingLeaf`).
    private var templates: [[UInt8]: (until: Date, findings: ChainFindings)] = [:]
    /// Chains remembered at most; beyond it the memory starts again.
    let capacity: Int
    private var counts = (searches: 0, reused: 0, siblings: 0)
    /// Where the clients that download missing issuers find them; nil: nothing is downloaded.
    private var issuers: FetchedIssuers?

    /// What the search found for one served chain: by client, each version range's finding, now and after
    /// each change ahead that reaches a root the chain can reach.
    struct ChainFindings {
        var current: [CTClient: [(ClientVersions?, PathFinding)]] = [:]
        var upcoming: [CTClient: [(change: ClientStoreData.Change, store: ClientStore, findings: [(ClientVersions?, PathFinding)])]] = [:]
    }

    /// Limits replacing each client's own (the public vectors' builder settings); nil: the client's.
    let limits: PathLimits?

    /// A judge of `stores` (one per client); a change a store's data cannot apply is left out.
    public convenience init(stores: [ClientStore], capacity: Int = 16_384) {
        self.init(stores: stores, capacity: capacity, limits: nil)
    }

    /// A judge whose searches stop at `limits` instead of each client's own.
    package init(stores: [ClientStore], capacity: Int = 16_384, limits: PathLimits?) {
        self.stores = stores
        self.capacity = capacity
        self.limits = limits
        changed = stores.flatMap { store in
            store.data.changes.compactMap { change in
                guard let data = store.data.after(change), let after = try? ClientStore(data) else { return nil }
                return (store, change, after)
            }
        }
    }

    /// Lets Chrome and Apple take issuers downloaded from caIssuers URLs (`FetchedIssuers`), as they do; a search
    /// made before a download arrived is made again.
    public func fetchIssuers(from issuers: FetchedIssuers) {
        lock.withLock { self.issuers = issuers }
    }

    /// Where the judge finds downloaded issuers, when it does.
    public var fetchedIssuers: FetchedIssuers? { lock.withLock { issuers } }

    /// How many chains were searched, answered from memory, and answered from a sibling leaf's paths.
    public var statistics: (searches: Int, reused: Int, siblings: Int) { lock.withLock { counts } }

    /// The paths of `served` (leaf first, as sent) for `host` at `time` (nil: no name checked); `facts` gives the
    /// facts of a certificate at a depth (the served ones are `servedFacts`). With `issuerTarget`, `served` starts
    /// at an issuer above a leaf not issued yet (`PathCheck+Issuer`), and no hazard of a served chain is looked for.
    package func paths(of served: [OpaquePointer], servedFacts: [ChainCertificate], host: String?, at time: Date, issuerTarget: Bool = false,
                       facts: (OpaquePointer, Int, CertificateSource) throws(ProbeError) -> ChainCertificate) throws(ProbeError) -> ClientPaths {
        guard !served.isEmpty, served.count == servedFacts.count else { return ClientPaths() }
        let found = findings(of: served, at: time, issuerTarget: issuerTarget)
        let nameError = host.flatMap { Self.nameMismatch(served[0], host: $0) }
        func chain(_ links: [PathLink], _ store: ClientStore, _ fetched: [FetchedCertificate]) throws(ProbeError) -> [ChainCertificate] {
            var chain: [ChainCertificate] = []
            for (depth, link) in links.enumerated() {
                switch link {
                case .served(let i):
                    var c = servedFacts[i]
                    c.depth = depth
                    chain.append(c)
                case .root(let r):
                    chain.append(try facts(store.roots[r], depth, .store))
                case .fetched(let f):
                    chain.append(try facts(fetched[f].x509, depth, .fetched))
                }
            }
            return chain
        }
        func paths(_ findings: [(ClientVersions?, PathFinding)], _ store: ClientStore) throws(ProbeError) -> [ClientPath] {
            var out: [ClientPath] = []
            for (versions, finding) in findings {
                let error = finding.error ?? nameError
                var path = ClientPath(versions: versions, chain: try chain(finding.links, store, finding.fetched),
                                      trusted: error == nil, reason: error, hazards: finding.hazards)
                if error == nil {
                    for links in finding.alternatives { path.alternatives.append(try chain(links, store, finding.fetched)) }
                    if case .root(let r)? = finding.links.last { path.anchorDistrustAfter = store.distrustAfter(of: r, in: versions) }
                }
                for url in finding.wanted where !pending.contains(url) { pending.append(url) }
                out.append(path)
            }
            return out
        }
        var pending: [String] = []
        var out = ClientPaths()
        for store in stores {
            let client = store.data.client
            out.inUse[client] = store.data.versionsInUse
            out.versionNames[client] = store.data.versionName
            out.byClient[client] = try paths(found.current[client] ?? [], store)
            for u in found.upcoming[client] ?? [] {
                out.upcoming[client, default: []].append(UpcomingStoreChange(change: u.change, paths: try paths(u.findings, u.store)))
            }
        }
        out.pendingIssuers = pending
        return out
    }

    /// The findings for `served` at `time`, remembered or searched (from an issuer, with `issuerTarget`).
    private func findings(of served: [OpaquePointer], at time: Date, issuerTarget: Bool) -> ChainFindings {
        let key = Self.key(of: served, issuerTarget: issuerTarget)
        let (issuers, generation) = lock.withLock { (self.issuers, self.issuers?.generation ?? 0) }
        if let key, let held = lock.withLock({ remembered[key] }), time < held.until, held.generation == generation {
            lock.withLock { counts.reused += 1 }
            return held.findings
        }
        let memo = SearchMemo(issuerTarget: issuerTarget)
        let siblingKey = issuerTarget ? nil : Self.key(of: Array(served.dropFirst()), leafIssuer: served[0])
        if let siblingKey, let template = lock.withLock({ templates[siblingKey] }), time < template.until,
           let found = SiblingLeaf.findings(template.findings, leaf: served[0], served: served, stores: stores,
                                            at: time, memo: memo) {
            let until = min(template.until, CertificateReader.firstValidityBoundary(of: [served[0]], after: time))
            lock.withLock {
                counts.siblings += 1
                if let key { remember(found, until: until, generation: generation, key: key) }
            }
            return found
        }
        var found = ChainFindings()
        // Until the first validity boundary above the leaf, of a reachable root, or a dated change.
        var until = CertificateReader.firstValidityBoundary(of: Array(served.dropFirst()), after: time)
        // The roots a downloaded issuer leads to count as reachable (Chrome's and Apple's paths through them).
        let downloaded = issuers?.reachable(from: served) ?? []
        let named = served + downloaded.flatMap(\.all)
        until = min(until, CertificateReader.firstValidityBoundary(of: downloaded.flatMap(\.all), after: time))
        for store in stores {
            let relevant = Self.reachableRoots(of: named, in: store)
            until = min(until, CertificateReader.firstValidityBoundary(of: relevant.map { store.roots[$0] }, after: time))
            found.current[store.data.client] = search(served, in: store, relevant: relevant, at: time, memo: memo, issuers: issuers)
        }
        for c in changed where c.change.date.map({ $0 > time }) ?? true {
            let relevant = Self.reachableRoots(of: named, in: c.after)
            guard relevant.contains(where: { c.after.data.roots[$0].certSHA256 == c.change.certSHA256 }) else { continue }
            if let date = c.change.date { until = min(until, date) }
            found.upcoming[c.store.data.client, default: []].append((c.change, c.after, search(served, in: c.after, relevant: relevant, at: time, memo: memo, issuers: issuers)))
        }
        let template = siblingKey != nil && SiblingLeaf.isTemplate(found, served: served, stores: stores)
        lock.withLock {
            counts.searches += 1
            if let key {
                remember(found, until: min(until, CertificateReader.firstValidityBoundary(of: [served[0]], after: time)),
                         generation: generation, key: key)
            }
            if template, let siblingKey {
                if templates.count >= capacity / 16 { templates.removeAll(keepingCapacity: true) }
                templates[siblingKey] = (until, found)
            }
        }
        return found
    }

    /// Keeps `found` for the chain of `key` until `until`, the memory started again when full. Called under the lock.
    private func remember(_ found: ChainFindings, until: Date, generation: Int, key: [UInt8]) {
        if remembered.count >= capacity { remembered.removeAll(keepingCapacity: true) }
        remembered[key] = (until, generation, found)
    }

    /// Each version range's finding for `served` in `store`, among the roots `relevant`.
    private func search(_ served: [OpaquePointer], in store: ClientStore, relevant: Set<Int>, at time: Date,
                        memo: SearchMemo, issuers: FetchedIssuers?) -> [(ClientVersions?, PathFinding)] {
        guard let strategy = PathStrategy.of(store.data.client) else { return [] }
        return store.segments(relevant: relevant).map { segment in
            var search = PathSearch(strategy: strategy, store: store, present: segment.present, served: served, time: time,
                                    limits: limits, memo: memo, issuers: issuers)
            var finding = search.run()
            if !memo.issuerTarget {
                finding.hazards = ServedChainHazards.find(served: served, finding: finding, store: store, present: segment.present, at: time)
            }
            return (segment.versions, finding)
        }
    }

    /// The roots of `store`, in any version, that a path from `served` can reach: named as the issuer or subject
    /// of a served certificate, or as the issuer of such a root, transitively.
    static func reachableRoots(of served: [OpaquePointer], in store: ClientStore) -> Set<Int> {
        // A served certificate the store holds itself (distrusted, say) is reached by its own subject.
        var names = served.flatMap { [ClientStore.nameDER(X509_get_issuer_name($0)), ClientStore.nameDER(X509_get_subject_name($0))] }
        var found: Set<Int> = []
        while let name = names.popLast() {
            for r in store.roots(named: name) where found.insert(r).inserted {
                names.append(ClientStore.nameDER(X509_get_issuer_name(store.roots[r])))
            }
        }
        return found
    }

    /// Why `leaf` is not valid for `host` (names from the subjectAltName only); nil when it is.
    static func nameMismatch(_ leaf: OpaquePointer, host name: String) -> String? {
        // One trailing dot is not part of the name (Chrome's `VerifyHostname`, Go's verifier).
        let host = name.hasSuffix(".") ? String(name.dropLast()) : name
        let matched: Bool
        if ServerVerification.isAddressLiteral(host) {
            matched = X509_check_ip_asc(leaf, host, 0) == 1
        } else {
            matched = X509_check_host(leaf, host, host.utf8.count, ServerVerification.hostFlags, nil) == 1
        }
        return matched ? nil : "the certificate's subjectAltName does not name \(host)"
    }

    /// SHA-256 over the served certificates' DER, each after its length, after the issuer name and authority key
    /// identifier of `leafIssuer` when given (what a sibling leaf must share), or after a mark for a search from
    /// an issuer; nil when one cannot be encoded.
    static func key(of served: [OpaquePointer], leafIssuer: OpaquePointer? = nil, issuerTarget: Bool = false) -> [UInt8]? {
        var bytes: [UInt8] = issuerTarget ? Array("issuer".utf8) + [0] : []
        if let leaf = leafIssuer {
            bytes += ClientStore.nameDER(X509_get_issuer_name(leaf))
            if let aki = X509_get0_authority_key_id(leaf) {
                bytes += UnsafeBufferPointer(start: ASN1_STRING_get0_data(aki), count: Int(ASN1_STRING_length(aki)))
            }
            bytes.append(0)
        }
        for x in served {
            guard let der = CertificateReader.der(of: x, encode: i2d_X509) else { return nil }
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { bytes += $0 }
            bytes += der
        }
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { _ = SHA256($0.baseAddress, $0.count, &digest) }
        return digest
    }
}
