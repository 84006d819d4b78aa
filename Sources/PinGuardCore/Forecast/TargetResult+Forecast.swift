import Foundation

extension TargetResult {
    /// Takes `outlook` and judges each applicable set's next renewal under it, from the first address that
    /// served a chain (nil clears the forecast).
    public mutating func forecast(with outlook: RenewalOutlook?, sets: [PolicySet]) {
        self.outlook = outlook
        guard let outlook, let k = nodes.firstIndex(where: { $0.facts.success }) else {
            forecasts = []
            return
        }
        forecasts = RenewalForecaster.forecast(nodes[k].facts, outlook: outlook, environment: target.environment,
                                               namedSets: target.policySets, sets: sets)
    }

    /// Judges again, under the outlook the result has, the forecasts of the sets not in `kept` (after a policy
    /// edit), and keeps those of the sets in it: the facts, the outlook and their policies are what they were
    /// forecast by. The forecasts come out in the order `forecast(with:sets:)` gives.
    public mutating func reforecast(sets: [PolicySet], keeping kept: Set<String>) {
        guard !kept.isEmpty else { return forecast(with: outlook, sets: sets) }
        guard let outlook, let k = nodes.firstIndex(where: { $0.facts.success }) else {
            forecasts = []
            return
        }
        let fresh = RenewalForecaster.forecast(nodes[k].facts, outlook: outlook, environment: target.environment,
                                               namedSets: target.policySets, sets: sets.filter { !kept.contains($0.name) })
        let old = forecasts
        let new = sets.compactMap { set in
            (kept.contains(set.name) ? old : fresh).first { $0.policySet == set.name }
        }
        // An edit that changes no forecast keeps the array the result has (shared with other results).
        if new != old { forecasts = new }
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
