import Foundation

extension TargetResult {
    /// Takes `outlook` and judges each applicable set's next renewal under it, from the first address that
    /// served a chain (nil clears the forecast); the forecasts `memo` holds for the same inputs are taken from it.
    public mutating func forecast(with outlook: RenewalOutlook?, sets: [PolicySet], memo: JudgementMemo? = nil) {
        self.outlook = outlook
        guard let outlook, let k = nodes.firstIndex(where: { $0.facts.success }) else {
            forecasts = []
            return
        }
        forecasts = RenewalForecaster.forecast(nodes[k].facts, outlook: outlook, environment: target.environment,
                                               namedSets: target.policySets, sets: sets, memo: memo)
    }

    /// Judges again, under the outlook the result has, the forecasts of the sets not in `kept` (after a policy
    /// edit), and keeps those of the sets in it: the facts, the outlook and their policies are what they were
    /// forecast by. The forecasts come out in the order `forecast(with:sets:)` gives; `memo` as there.
    public mutating func reforecast(sets: [PolicySet], keeping kept: Set<String>, memo: JudgementMemo? = nil) {
        guard !kept.isEmpty else { return forecast(with: outlook, sets: sets, memo: memo) }
        guard let outlook, let k = nodes.firstIndex(where: { $0.facts.success }) else {
            forecasts = []
            return
        }
        let fresh = RenewalForecaster.forecast(nodes[k].facts, outlook: outlook, environment: target.environment,
                                               namedSets: target.policySets, sets: sets, except: kept, memo: memo)
        let old = forecasts
        var new: [SetForecast] = []
        new.reserveCapacity(old.count)
        // By index: iterating the sets would copy each.
        for i in sets.indices {
            let name = sets[i].name
            if let f = (kept.contains(name) ? old : fresh).first(where: { $0.policySet == name }) { new.append(f) }
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
