import Foundation
import PinGuardCore

/// Attaches to each probed chain the revocation state of its certificates: for every certificate of the
/// evaluated chain but the trust anchor that names a distribution point, the first of its first
/// `CRLCache.maxPointsPerCertificate` points whose list is known and answers (`RevocationJudge`); the first
/// one's reason stands when none does. Nothing here waits on the network: a list not known yet is
/// `not_fetched` and wanted by the next download pass (`CRLDownloads`), after which the results naming it
/// are judged again.
///
/// The answers only report: verdicts (`pinguard_policy_accept`) never fold them in, as the mobile clients
/// whose pins pinguard judges do not check CRLs.
public struct RevocationChecker: Sendable {
    /// What is known of the lists.
    public let cache: CRLCache
    private let clock: any ServiceClock

    /// Creates a checker over `cache`, judging at `clock`'s time.
    public init(cache: CRLCache, clock: any ServiceClock) {
        self.cache = cache
        self.clock = clock
    }

    /// `probe` with `revocation` filled in on every node that served a chain; `want` is false for a
    /// `GET /probe`, which answers from the lists known and makes no download.
    public func attach(to probe: TargetProbe, want: Bool = true) async -> TargetProbe {
        var probe = probe
        for k in probe.nodes.indices where probe.nodes[k].success {
            probe.nodes[k].revocation = await states(of: probe.nodes[k], want: want)
        }
        return probe
    }

    /// The states of the certificates of `facts`' evaluated chain that name a distribution point.
    public func states(of facts: ProbeFacts, want: Bool = true) async -> [CertificateRevocation] {
        let chain = facts.evaluatedChain
        var out: [CertificateRevocation] = []
        for (depth, certificate) in chain.enumerated() where !Self.isAnchor(depth, of: facts) {
            guard let first = certificate.crlDistributionPoints.first else { continue }
            guard depth + 1 < chain.count, chain[depth + 1].subject == certificate.issuer else {
                out.append(CertificateRevocation(depth: depth, url: first, state: .unknown(.noIssuer)))
                continue
            }
            out.append(await state(of: certificate, depth: depth, issuer: chain[depth + 1], want: want))
        }
        return out
    }

    /// The answer of the first distribution point whose list is known and covers `certificate`.
    func state(of certificate: ChainCertificate, depth: Int, issuer: ChainCertificate, want: Bool) async -> CertificateRevocation {
        var firstUnknown: CertificateRevocation?
        for url in certificate.crlDistributionPoints.prefix(CRLCache.maxPointsPerCertificate) {
            let state: RevocationState
            switch await cache.known(url: url, issuer: issuer, serial: certificate.serial, want: want) {
            case .success(let list): state = RevocationJudge.judge(certificate, on: list, now: clock.now)
            case .failure(let reason): state = .unknown(reason)
            }
            let answer = CertificateRevocation(depth: depth, url: url, state: state)
            guard case .unknown = state else { return answer }
            firstUnknown = firstUnknown ?? answer
        }
        return firstUnknown ?? CertificateRevocation(depth: depth, url: "", state: .unknown(.fetchFailed))
    }

    /// The distribution points the rounds ask for in `facts`' chains: the first `maxPointsPerCertificate` of
    /// each certificate but the anchor.
    public static func askedPoints(of facts: ProbeFacts) -> [String] {
        facts.evaluatedChain.enumerated().flatMap { depth, certificate in
            isAnchor(depth, of: facts) ? [] : Array(certificate.crlDistributionPoints.prefix(CRLCache.maxPointsPerCertificate))
        }
    }

    /// Whether the certificate at `depth` is the chain's trust anchor: the last certificate of a trusted
    /// chain, or a self-issued last certificate. Nothing above it could revoke it.
    static func isAnchor(_ depth: Int, of facts: ProbeFacts) -> Bool {
        let chain = facts.evaluatedChain
        guard depth == chain.count - 1 else { return false }
        return (facts.trusted && !facts.verifiedChain.isEmpty) || chain[depth].selfIssued
    }
}
