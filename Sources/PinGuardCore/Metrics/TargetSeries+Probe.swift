import Foundation

extension TargetSeries {
    typealias M = PinGuardMetrics

    /// The families of each address's probe and of the certificates it was served, in exposition order.
    static let probe: [TargetSeries] = [
        .perAddress(M.probeSuccess, bytesPerTarget: 96) { _, n in n.facts.success ? 1 : 0 },
        .perAddress(M.probeDuration, bytesPerTarget: 128) { _, n in n.facts.duration },
        .perAddress(M.probeTimestamp, bytesPerTarget: 128) { _, n in n.facts.finishedAt.timeIntervalSince1970 },
        .perAddressInfo(M.tlsVersionInfo, bytesPerTarget: 128) { n in n.facts.tlsVersion },
        // A trusted chain is what nearly every probe gets: with `probe_success` 1, an absent series is 1.
        .perAddress(M.chainTrusted, bytesPerTarget: 32) { _, n in n.facts.success && !n.facts.trusted ? 0 : nil },
        leafSeries(M.certNotAfter, bytesPerTarget: 160) { w, c in w.end(c.notAfter) },
        leafSeries(M.certNotBefore, bytesPerTarget: 160) { w, c in w.end(c.notBefore) },
        leafSeries(M.certInfo, bytesPerTarget: 640) { w, c in
            w.label(c.subject); w.label(c.issuer); w.label(c.serial); w.label(c.spkiSHA256); w.label(c.certSHA256)
            w.label(c.source.rawValue); w.end(1)
        },
        TargetSeries(M.chainCertInfo, bytesPerTarget: 384) { r, shared, w in
            guard shared.certificates == .chain else { return }
            for n in r.nodes {
                for c in n.facts.evaluatedChain where c.depth > 0 {
                    w.begin(); w.label(r.target.name); w.label(n.address); w.label(c.depth); w.label(c.certSHA256)
                    w.label(c.source.rawValue); w.end(1)
                }
            }
        },
        .perAddress(M.chainEarliestExpiry, bytesPerTarget: 160) { _, n in
            n.facts.evaluatedChain.lazy.map(\.notAfter.timeIntervalSince1970).min()
        },
    ]

    /// The families of TLS client authentication, in exposition order.
    static let clientAuth: [TargetSeries] = [
        // Absent = not asked, unless the target has a client identity to present: then 0 says the server
        // stopped asking.
        .perAddress(M.mtlsClientCertificateRequested, bytesPerTarget: 64) { r, n in
            let c = n.facts.clientAuth
            return c.requested ? 1 : (n.facts.success && r.target.clientIdentity != nil ? 0 : nil)
        },
        .perAddress(M.mtlsClientCertificatePresented, bytesPerTarget: 16) { _, n in
            n.facts.clientAuth.requested ? (n.facts.clientAuth.presented ? 1 : 0) : nil
        },
        .perTarget(M.clientCertificateNotAfter, bytesPerTarget: 16) { r in
            r.nodes.lazy.compactMap(\.facts.clientAuth.certificateNotAfter).first?.timeIntervalSince1970
        },
    ]

    /// A per-certificate family of the leaf of each address's evaluated chain (`target`, `address`, `depth`
    /// "0", then what `rest` writes), unless `metrics.certificates` is `none`.
    private static func leafSeries(_ family: MetricFamily, bytesPerTarget: Int,
                                   _ rest: @escaping @Sendable (inout ExpositionWriter, ChainCertificate) -> Void) -> TargetSeries {
        TargetSeries(family, bytesPerTarget: bytesPerTarget) { r, shared, w in
            guard shared.certificates != .none else { return }
            for n in r.nodes {
                guard let leaf = n.facts.evaluatedChain.first(where: { $0.depth == 0 }) else { continue }
                w.begin(); w.label(r.target.name); w.label(n.address); w.label(leaf.depth)
                rest(&w, leaf)
            }
        }
    }
}
