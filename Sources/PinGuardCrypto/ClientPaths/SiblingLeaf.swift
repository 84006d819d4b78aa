import COpenSSL
import Foundation
import PinGuardCore

/// A leaf served with the same certificates above it as a leaf already judged (100,000 targets with their own
/// leaves under a few intermediates): the paths found for the first leaf hold for the sibling when the sibling
/// passes, on each path, the checks that read the leaf (its issuer's signature, its dates, its key usages, its key
/// and signature strength at the client's level, no unknown critical extension, and the client's own rules). Any
/// doubt (a check fails, a path with name constraints, a path that was rejected) and the sibling is searched in
/// full, so the verdict is the one a full search gives.
enum SiblingLeaf {
    /// The findings of `template` for the chain whose leaf is `leaf` (its other certificates those of the
    /// template's chain), or nil when the sibling must be searched in full.
    static func findings(_ template: ClientPathJudge.ChainFindings, leaf: OpaquePointer, served: [OpaquePointer],
                         stores: [ClientStore], at time: Date, memo: SearchMemo) -> ClientPathJudge.ChainFindings? {
        func holds(_ findings: [(ClientVersions?, PathFinding)], _ store: ClientStore) -> Bool {
            guard let strategy = PathStrategy.of(store.data.client) else { return true }
            return findings.allSatisfy { _, finding in
                finding.error == nil && ([finding.links] + finding.alternatives).allSatisfy { links in
                    let path = links.map { link -> OpaquePointer in
                        switch link {
                        case .served(let i): i == 0 ? leaf : served[i]
                        case .root(let r): store.roots[r]
                        case .fetched(let f): finding.fetched[f].x509
                        }
                    }
                    guard case .root(let r) = links.last else { return false }
                    return passes(leaf, path: path, anchor: store.data.roots[r], strategy: strategy,
                                  publicRoots: store.data.publicRoots, at: time, memo: memo)
                }
            }
        }
        for store in stores where !holds(template.current[store.data.client] ?? [], store) { return nil }
        for (_, upcoming) in template.upcoming {
            for u in upcoming where !holds(u.findings, u.store) { return nil }
        }
        return template
    }

    /// Whether `leaf` passes, on `path` (leaf first), the checks that read it.
    static func passes(_ leaf: OpaquePointer, path: [OpaquePointer], anchor: ClientStoreData.Root, strategy: PathStrategy,
                       publicRoots: Bool, at time: Date, memo: SearchMemo) -> Bool {
        guard path.count > 1, memo.signed(leaf, by: path[1]) else { return false }
        let notBefore = CertificateReader.time(X509_get0_notBefore(leaf)), notAfter = CertificateReader.time(X509_get0_notAfter(leaf))
        guard notBefore <= time, time <= notAfter else { return false }
        let flags = X509_get_extension_flags(leaf)
        guard flags & UInt32(EXFLAG_CRITICAL) == 0 else { return false }
        if flags & UInt32(EXFLAG_XKUSAGE) != 0 {
            let usage = X509_get_extended_key_usage(leaf)
            let lenient = strategy != .apple && usage & UInt32(XKU_ANYEKU) != 0
            guard usage & UInt32(XKU_SSL_SERVER) != 0 || lenient else { return false }
        }
        if flags & UInt32(EXFLAG_KUSAGE) != 0 {
            let tls = UInt32(KU_DIGITAL_SIGNATURE | KU_KEY_ENCIPHERMENT | KU_KEY_AGREEMENT)
            guard X509_get_key_usage(leaf) & tls != 0 else { return false }
        }
        let minimum: Int32 = strategy.securityLevel >= 2 ? 112 : 80
        var digest: Int32 = 0, key: Int32 = 0, bits: Int32 = 0
        guard X509_get_signature_info(leaf, &digest, &key, &bits, nil) == 1, bits >= minimum,
              let pkey = X509_get0_pubkey(leaf), EVP_PKEY_get_security_bits(pkey) >= minimum else { return false }
        return PathCheck.clientRulesFailure(of: path, anchor: anchor, strategy: strategy, publicRoots: publicRoots) == nil
    }

    /// Whether the findings may stand for sibling leaves: every path accepted, and no certificate above the leaf on
    /// any path constrains names (a constraint reads the leaf's names, which the sibling checks do not).
    static func isTemplate(_ found: ClientPathJudge.ChainFindings, served: [OpaquePointer], stores: [ClientStore]) -> Bool {
        func constrains(_ x: OpaquePointer) -> Bool { X509_get_ext_by_NID(x, NID_name_constraints, -1) >= 0 }
        if served.dropFirst().contains(where: constrains) { return false }
        var all: [(ClientStore, PathFinding)] = []
        for store in stores { all += (found.current[store.data.client] ?? []).map { (store, $0.1) } }
        for upcoming in found.upcoming.values { for u in upcoming { all += u.findings.map { (u.store, $0.1) } } }
        // A path through a downloaded issuer, or one waiting for a download, stands for nothing but its own chain.
        return all.allSatisfy { store, finding in
            finding.error == nil && finding.fetched.isEmpty && finding.wanted.isEmpty && ([finding.links] + finding.alternatives).allSatisfy { links in
                links.allSatisfy { link in
                    guard case .root(let r) = link else { return true }
                    return !constrains(store.roots[r])
                }
            }
        }
    }
}
