import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto

/// The facts of certificates a prober has read, by the SHA-256 of their DER bytes: the intermediates and
/// roots of a fleet (and a leaf served for many names) are read once, not at every probe, and their facts
/// are one shared object however many results hold them. The facts follow from the bytes alone, so a
/// stored copy is what reading them again would give. Thread-safe; bounded by `budget` (4,096 certificates,
/// 16 MiB): over either it starts over (what the results hold stays theirs).
///
/// A certificate read anew takes its issuer's name and key identifier from the last one read under the same
/// issuer: 100,000 leaves under one intermediate hold one copy of each text, not 100,000.
package final class CertificateFactsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: ChainCertificate] = [:]
    private var budget: CacheBudget
    /// The issuer texts of the certificates read, held once (at most `maxIssuerTexts`).
    private var issuerTexts: [String: String] = [:]
    private static let maxIssuerTexts = 4096

    /// An empty cache of at most `maxEntries` certificates and `maxBytes` bytes.
    package init(maxEntries: Int = 4096, maxBytes: Int = 16 << 20) {
        budget = CacheBudget(maxEntries: maxEntries, maxBytes: maxBytes)
    }

    /// What the facts of a certificate of `der` bytes cost: their texts come from those bytes and may
    /// double them when escaped, plus the key and the table's share.
    static func cost(der: Int) -> Int { 2 * der + 256 }

    /// The facts of `x509` at `depth` from `source`, read through `CertificateReader` the first time.
    package func facts(of x509: OpaquePointer, depth: Int, source: CertificateSource) throws(ProbeError) -> ChainCertificate {
        guard let der = CertificateReader.der(of: x509, encode: i2d_X509) else {
            return try CertificateReader.facts(of: x509, depth: depth, source: source)
        }
        let key = CertificateReader.sha256Base64(der[...])
        if var known = lock.withLock({ entries[key] }) {
            known.depth = depth
            known.source = source
            return known
        }
        var read = try CertificateReader.facts(of: x509, depth: depth, source: source)
        lock.withLock {
            shareIssuerTexts(&read)
            guard entries[key] == nil else { return }
            if !budget.admit(cost: Self.cost(der: der.count)) {
                entries.removeAll(keepingCapacity: true)
                budget.reset()
                guard budget.admit(cost: Self.cost(der: der.count)) else { return }
            }
            entries[key] = read
        }
        return read
    }

    /// `facts` holding the shared copies of its issuer's name and key identifier (called under the lock, on
    /// facts no one else holds yet, so nothing is copied).
    private func shareIssuerTexts(_ facts: inout ChainCertificate) {
        if let shared = issuerTexts[facts.issuer] { facts.issuer = shared } else { remember(facts.issuer) }
        if let id = facts.authorityKeyID {
            if let shared = issuerTexts[id] { facts.authorityKeyID = shared } else { remember(id) }
        }
    }

    private func remember(_ text: String) {
        if issuerTexts.count >= Self.maxIssuerTexts { issuerTexts.removeAll(keepingCapacity: true) }
        issuerTexts[text] = text
    }
}
