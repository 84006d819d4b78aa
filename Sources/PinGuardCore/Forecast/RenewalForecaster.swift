import Foundation

/// Judges a target's next renewal: every plausible next chain (the next key under each issuer of the pool,
/// with its path to a root) is judged by the same `Evaluator` that judges served chains, at the time of the
/// renewal. A new key matches no pin; a reused or staged key is the key it is.
public enum RenewalForecaster {
    /// What never equals a pin: the hash of a key or certificate that does not exist yet.
    static let unknownKey = "next-key-not-yet-generated"
    static let unknownCertificate = "next-certificate-not-yet-issued"

    /// When the next renewal of `leaf` is due: `before` its notAfter when given, else a third of its
    /// lifetime before it (the ACME convention: certbot renews a 90-day certificate 30 days early).
    public static func nextRenewal(of leaf: ChainCertificate, before: Double?) -> Date {
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        return leaf.notAfter.addingTimeInterval(-(before ?? max(lifetime, 0) / 3))
    }

    /// The forecast of each set that judges the served `facts` (the same sets, named or covering, as the
    /// served chain's evaluations), under `outlook`.
    public static func forecast(_ facts: ProbeFacts, outlook: RenewalOutlook, environment: String, namedSets: [String]?,
                                sets: [PolicySet]) -> [SetForecast] {
        guard let leaf = facts.evaluatedChain.first, !outlook.issuers.isEmpty else { return [] }
        let candidates = outlook.issuers.map { nextChain(after: leaf, under: $0, outlook: outlook) }
        var out: [SetForecast] = []
        for set in applicable(sets, namedSets: namedSets) {
            var rejectedBy: [String] = []
            var keyUnpinned = false
            var judged = 0
            for (option, chain) in zip(outlook.issuers, candidates) {
                let next = ProbeFacts(host: facts.host, port: facts.port, servedChain: chain, verifiedChain: chain, trusted: true,
                                      finishedAt: outlook.nextRenewal)
                guard let e = Evaluator.evaluate(next, policySet: set, environment: environment, named: namedSets != nil,
                                                 now: outlook.nextRenewal), e.verdict != .none else { continue }
                judged += 1
                if e.verdict == .reject { rejectedBy.append(option.name) }
                if let pins = e.policy?.pins, !pins.isEmpty, !pins.contains(where: { Evaluator.hashMatches($0, chain[0]) }) {
                    keyUnpinned = true
                }
            }
            guard judged > 0 else { continue }
            let ratio = Double(rejectedBy.count) / Double(judged)
            out.append(SetForecast(policySet: set.name, environment: environment, rejectRatio: ratio,
                                   breakage: ratio > 0 ? outlook.nextRenewal : nil, uncoveredIssuers: rejectedBy,
                                   keyUnpinned: keyUnpinned))
        }
        return out
    }

    /// The forecasts of every set in every environment it has (what `plan` judges a candidate by).
    public static func forecastEveryEnvironment(_ facts: ProbeFacts, outlook: RenewalOutlook, sets: [PolicySet]) -> [SetForecast] {
        let environments = Set(sets.flatMap(\.environments.keys)).sorted()
        return environments.flatMap { forecast(facts, outlook: outlook, environment: $0, namedSets: nil, sets: sets) }
    }

    /// The sets a target is judged by: those it names, else all (the evaluator skips sets without a
    /// policy for the host).
    static func applicable(_ sets: [PolicySet], namedSets: [String]?) -> [PolicySet] {
        guard let namedSets else { return sets }
        return sets.filter { namedSets.contains($0.name) }
    }

    /// The chain a renewal under `option` would serve: the next leaf, then the option's chain.
    static func nextChain(after leaf: ChainCertificate, under option: IssuerOption, outlook: RenewalOutlook) -> [ChainCertificate] {
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        let key: String
        switch outlook.key {
        case .reuse: key = leaf.spkiSHA256
        case .rotate, .unknown: key = outlook.stagedLeaf?.spkiSHA256 ?? unknownKey
        }
        let issuer = option.chain.first
        let next = ChainCertificate(depth: 0, subject: leaf.subject, issuer: issuer?.subject ?? leaf.issuer,
                                    notBefore: outlook.nextRenewal, notAfter: outlook.nextRenewal.addingTimeInterval(lifetime),
                                    spkiSHA256: key, certSHA256: outlook.stagedLeaf?.certSHA256 ?? unknownCertificate)
        return [next] + option.chain.enumerated().map { i, c in
            var c = c
            c.depth = i + 1
            return c
        }
    }
}
