import Foundation

extension TargetResult {
    /// Takes `outlook` and judges each applicable set's next renewal under it, from the first address that
    /// served a chain (nil clears the forecast).
    public mutating func forecast(with outlook: RenewalOutlook?, sets: [PolicySet]) {
        self.outlook = outlook
        guard let outlook, let node = nodes.first(where: { $0.facts.success }) else {
            forecasts = []
            return
        }
        forecasts = RenewalForecaster.forecast(node.facts, outlook: outlook, environment: target.environment,
                                               namedSets: target.policySets, sets: sets)
    }

    /// The chain the forecast starts from: the first address's evaluated chain.
    public var forecastChain: [ChainCertificate] {
        nodes.first(where: { $0.facts.success })?.facts.evaluatedChain ?? []
    }

    /// The `cert_sha256` of every certificate a valid CRL lists as revoked on any address: issuers the
    /// forecast drops.
    public var revokedCertificates: Set<String> {
        var out = Set<String>()
        for n in nodes {
            let chain = n.facts.evaluatedChain
            for r in n.facts.revocation where r.state.isRevoked && r.depth < chain.count { out.insert(chain[r.depth].certSHA256) }
        }
        return out
    }
}
