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
    public private(set) var certificates: [ChainCertificate]

    /// The certificates above the leaf of every address of `results`.
    public init(_ results: some Sequence<TargetResult>) {
        var seen: [String: ChainCertificate] = [:]
        for r in results {
            for n in r.nodes {
                for c in n.facts.evaluatedChain where c.depth > 0 && seen[c.certSHA256] == nil { seen[c.certSHA256] = c }
            }
        }
        certificates = seen.values.sorted { $0.certSHA256 < $1.certSHA256 }
    }

    /// The union of several sets (each certificate once).
    public static func combine(_ parts: [CACertificates]) -> CACertificates {
        var all = CACertificates([TargetResult]())
        var seen = Set<String>()
        for p in parts { for c in p.certificates where seen.insert(c.certSHA256).inserted { all.certificates.append(c) } }
        all.certificates.sort { $0.certSHA256 < $1.certSHA256 }
        return all
    }
}

extension MetricsRenderer {
    /// The `pinguard_ca_cert_*` families for `cas`; only their HELP and TYPE lines unless `certificates` is
    /// `chain`.
    public static func renderCACertificates(_ cas: CACertificates, certificates: CertificateSeries) -> [UInt8] {
        typealias M = PinGuardMetrics
        let shown = certificates == .chain ? cas.certificates : []
        var w = ExpositionWriter(M.caCertInfo, capacity: 256 + shown.count * 400)
        for c in shown {
            w.begin(); w.label(c.certSHA256); w.label(c.subject); w.label(c.issuer); w.label(c.serial); w.label(c.spkiSHA256); w.end(1)
        }
        w.start(M.caCertNotAfter)
        for c in shown { w.begin(); w.label(c.certSHA256); w.end(c.notAfter) }
        w.start(M.caCertNotBefore)
        for c in shown { w.begin(); w.label(c.certSHA256); w.end(c.notBefore) }
        return w.buffer
    }
}
