import Foundation

extension PinGuardMetrics {
    // The certificates above the leaf: linked per address, described once per distinct certificate.

    /// Which certificates above the leaf each address's evaluated chain holds.
    public static let chainCertInfo = MetricFamily(
        "pinguard_chain_cert_info", .gauge, labels: ["target", "address", "depth", "cert_sha256", "source"],
        help: "1 per certificate above the leaf (depth 1 and up) of the evaluated chain; join on cert_sha256 with pinguard_ca_cert_info and pinguard_ca_cert_not_after_timestamp_seconds. source is served or store. Only with metrics.certificates: chain." + latest)
    /// Identity of each distinct certificate above a leaf.
    public static let caCertInfo = MetricFamily(
        "pinguard_ca_cert_info", .gauge, labels: ["cert_sha256", "subject", "issuer", "serial", "spki_sha256"],
        help: "1 per distinct certificate above the leaf in any target's evaluated chain (intermediates and roots, exported once however many targets share them). Only with metrics.certificates: chain.")
    /// notAfter of each distinct certificate above a leaf.
    public static let caCertNotAfter = MetricFamily(
        "pinguard_ca_cert_not_after_timestamp_seconds", .gauge, labels: ["cert_sha256"],
        help: "notAfter of each distinct certificate above the leaf in any target's evaluated chain. Only with metrics.certificates: chain.")
    /// notBefore of each distinct certificate above a leaf.
    public static let caCertNotBefore = MetricFamily(
        "pinguard_ca_cert_not_before_timestamp_seconds", .gauge, labels: ["cert_sha256"],
        help: "notBefore of each distinct certificate above the leaf in any target's evaluated chain. Only with metrics.certificates: chain.")

    /// The families of the distinct certificates above the leaves, in exposition order.
    public static let caCertFamilies: [MetricFamily] = [caCertInfo, caCertNotAfter, caCertNotBefore]
}

/// The distinct certificates above the leaf in a set of results' evaluated chains, by `cert_sha256`: what
/// `pinguard_ca_cert_*` describes once each.
public struct CACertificates: Sendable {
    /// The certificates, sorted by fingerprint.
    public let certificates: [ChainCertificate]

    /// The certificates above the leaf of every address of `results`; none unless `certificates` is
    /// `chain` (the only mode that exports them).
    public init(_ results: some Sequence<TargetResult>, certificates mode: CertificateSeries) {
        guard mode == .chain else {
            certificates = []
            return
        }
        var seen: [String: ChainCertificate] = [:]
        for r in results {
            for n in r.nodes {
                for c in n.facts.evaluatedChain where c.depth > 0 && seen[c.certSHA256] == nil { seen[c.certSHA256] = c }
            }
        }
        certificates = seen.values.sorted { $0.certSHA256 < $1.certSHA256 }
    }

    private init(sorted: [ChainCertificate]) { certificates = sorted }

    /// The union of several sets (each certificate once).
    public static func combine(_ parts: [CACertificates]) -> CACertificates {
        var seen = Set<String>()
        let all = parts.flatMap(\.certificates).filter { seen.insert($0.certSHA256).inserted }
        return CACertificates(sorted: all.sorted { $0.certSHA256 < $1.certSHA256 })
    }
}

extension MetricsRenderer {
    /// The `pinguard_ca_cert_*` families for `cas` (only their HELP and TYPE lines when it is empty).
    public static func renderCACertificates(_ cas: CACertificates) -> [UInt8] {
        typealias M = PinGuardMetrics
        var w = ExpositionWriter(M.caCertInfo, capacity: 256 + cas.certificates.count * 400)
        for c in cas.certificates {
            w.begin(); w.label(c.certSHA256); w.label(c.subject); w.label(c.issuer); w.label(c.serial); w.label(c.spkiSHA256); w.end(1)
        }
        w.start(M.caCertNotAfter)
        for c in cas.certificates { w.begin(); w.label(c.certSHA256); w.end(c.notAfter) }
        w.start(M.caCertNotBefore)
        for c in cas.certificates { w.begin(); w.label(c.certSHA256); w.end(c.notBefore) }
        return w.buffer
    }
}
