import COpenSSL
import Foundation
import PinGuardCore
import PinGuardCrypto

/// The facts of certificates a prober has read, by the SHA-256 of their DER bytes: the intermediates and
/// roots of a fleet (and a leaf served for many names) are read once, not at every probe, and their facts
/// are one shared object however many results hold them. The facts follow from the bytes alone, so a
/// stored copy is what reading them again would give. Thread-safe; at `capacity` entries it starts over.
final class CertificateFactsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: ChainCertificate] = [:]
    /// Entries beyond this empty the cache (what the results hold stays theirs).
    let capacity: Int

    /// An empty cache of at most `capacity` certificates.
    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The facts of `x509` at `depth` from `source`, read through `CertificateReader` the first time.
    func facts(of x509: OpaquePointer, depth: Int, source: CertificateSource) throws(ProbeError) -> ChainCertificate {
        guard let der = CertificateReader.der(of: x509, encode: i2d_X509) else {
            return try CertificateReader.facts(of: x509, depth: depth, source: source)
        }
        let key = CertificateReader.sha256Base64(der[...])
        if var known = lock.withLock({ entries[key] }) {
            known.depth = depth
            known.source = source
            return known
        }
        let read = try CertificateReader.facts(of: x509, depth: depth, source: source)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = read
        }
        return read
    }
}
