import COpenSSL
import Foundation
import PinGuardCore

/// The paths each client builds above an issuer a renewal may come from (`IssuerPathsSource`), version by
/// version: the issuer's certificate and the certificates the CA serves above it (the ones the option names that
/// are not self-signed, and the cross-signs of each: another certificate with its key that is not self-signed and
/// is valid at the time), searched from the issuer by the same judge as served chains
/// (`PathCheck+Issuer`). The certificates are the bundled issuer catalog's and the `issuer_pools` files'; an
/// option whose issuing certificate is not among them has no paths (the forecast keeps its one path). An
/// option's paths are kept for an hour of the time asked about.
/// The other halves: the forecast's use of them in PinGuardCore/Forecast (`RenewalForecaster+ClientPaths`), the
/// certificates' loading in PinGuardConfig/Forecast.
public final class IssuerClientPaths: IssuerPathsSource, @unchecked Sendable {
    /// The judge whose stores and searches the paths come from.
    public let judge: ClientPathJudge
    private let certificates: [OpaquePointer]
    private let facts: [ChainCertificate]
    private let byHash: [String: Int]
    /// The certificates that are not self-signed, by their key.
    private let bySPKI: [String: [Int]]
    private let lock = NSLock()
    private var held: [String: (hour: Int, paths: ClientPaths?)] = [:]
    /// Options whose paths are kept at most; beyond it the memory starts again.
    static let capacity = 4_096

    /// Paths by `judge` from `certificates` (DER each); one that cannot be read is left out.
    public init(judge: ClientPathJudge, certificates ders: [[UInt8]]) {
        self.judge = judge
        var certificates: [OpaquePointer] = [], facts: [ChainCertificate] = []
        for der in ders {
            guard let x = try? CertificateFile.parse(der, name: "issuer").first else { continue }
            guard let f = try? CertificateReader.facts(of: x, depth: 0, source: .served), !facts.contains(where: { $0.certSHA256 == f.certSHA256 }) else {
                X509_free(x)
                continue
            }
            certificates.append(x)
            facts.append(f)
        }
        self.certificates = certificates
        self.facts = facts
        var byHash: [String: Int] = [:], bySPKI: [String: [Int]] = [:]
        for (k, f) in facts.enumerated() {
            byHash[f.certSHA256] = k
            if f.subject != f.issuer { bySPKI[f.spkiSHA256, default: []].append(k) }
        }
        self.byHash = byHash
        self.bySPKI = bySPKI
    }

    deinit { certificates.forEach { X509_free($0) } }

    /// How many certificates were read.
    public var count: Int { certificates.count }

    /// The paths each client builds above `option`'s issuing certificate at `time`; nil when it is not known.
    public func clientPaths(above option: IssuerOption, at time: Date) -> ClientPaths? {
        guard let first = option.chain.first, let issuer = byHash[first.certSHA256] else { return nil }
        let key = option.chain.map(\.certSHA256).joined(separator: " ")
        let hour = Int((time.timeIntervalSince1970 / 3_600).rounded(.down))
        if let kept = lock.withLock({ held[key] }), kept.hour == hour { return kept.paths }
        let served = self.served(option, issuer: issuer, at: time)
        let servedFacts = served.enumerated().map { depth, k in
            var f = facts[k]
            f.depth = depth
            return f
        }
        let paths = try? judge.paths(of: served.map { certificates[$0] }, servedFacts: servedFacts, host: nil, at: time,
                                     issuerTarget: true) { x, depth, source throws(ProbeError) in
            try CertificateReader.facts(of: x, depth: depth, source: source)
        }
        lock.withLock {
            if held.count >= Self.capacity { held.removeAll(keepingCapacity: true) }
            held[key] = (hour, paths)
        }
        return paths
    }

    /// The certificates served with `option`'s issuer: the issuer, then for each certificate above it, that
    /// certificate unless self-signed and its cross-signs valid at `time`, each once.
    func served(_ option: IssuerOption, issuer: Int, at time: Date) -> [Int] {
        var out = [issuer]
        for c in option.chain.dropFirst() {
            var here: [Int] = []
            if let k = byHash[c.certSHA256], facts[k].subject != facts[k].issuer { here.append(k) }
            here += (bySPKI[c.spkiSHA256] ?? []).filter { k in facts[k].notBefore <= time && time < facts[k].notAfter }
            for k in here where !out.contains(k) { out.append(k) }
        }
        return out
    }
}
