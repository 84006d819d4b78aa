import Foundation

/// The next chain judged on the path each client builds: a renewal under the issuer serving today is served as
/// today's chain is, so each client builds, version by version, the path it builds today above the leaf; the
/// next leaf is judged against what each anchor's store says of leaves issued on its date (a distrust date
/// passed). Other issuers keep the one path the outlook gives them (docs/reference.md, Forecast).
extension RenewalForecaster {
    /// The decision of `set` on the next chain `chain` under `option`: on each client path when the facts hold
    /// the set's client's paths and the option is the issuer those paths take above today's leaf, else on the
    /// chain itself.
    static func decision(_ next: ProbeFacts, chain: [ChainCertificate], option: IssuerOption, today: ProbeFacts, set: PolicySet,
                         selected: Evaluator.Selection, environment: String, named: Bool, now: Date) -> Evaluation? {
        if set.client != .none, let leaf = chain.first, let paths = clientPaths(of: today, client: set.client, nextLeaf: leaf, issuer: option.chain.first) {
            var facts = next
            facts.clientPaths = paths
            return ClientPathEvaluator.evaluate(facts, policySet: set, environment: environment, named: named, now: now)
        }
        return Evaluator.evaluate(next, on: Evaluator.Trust(chain: chain, trusted: true), selected: selected, policySet: set,
                                  environment: environment, named: named, now: now, detailed: false)
    }

    /// Today's paths of `client` with `nextLeaf` in place of today's leaf, when every path of the client that
    /// reached an issuer reached `issuer` (the same key and subject) first; nil otherwise, or without paths.
    static func clientPaths(of today: ProbeFacts, client: CTClient, nextLeaf: ChainCertificate, issuer: ChainCertificate?) -> ClientPaths? {
        guard let issuer, let current = today.clientPaths.byClient[client], !current.isEmpty else { return nil }
        let upcoming = today.clientPaths.upcoming[client] ?? []
        func takesIssuer(_ path: ClientPath) -> Bool {
            path.chain.count < 2 || (path.chain[1].spkiSHA256 == issuer.spkiSHA256 && path.chain[1].subject == issuer.subject)
        }
        guard current.allSatisfy(takesIssuer), upcoming.allSatisfy({ $0.paths.allSatisfy(takesIssuer) }) else { return nil }
        var out = ClientPaths(byClient: [client: current.map { renewed($0, leaf: nextLeaf) }], inUse: today.clientPaths.inUse)
        out.versionNames = today.clientPaths.versionNames
        if !upcoming.isEmpty {
            out.upcoming[client] = upcoming.map { change in
                var c = change
                c.paths = change.paths.map { renewed($0, leaf: nextLeaf) }
                return c
            }
        }
        return out
    }

    /// `path` with `leaf` in place of today's leaf: no longer trusted when its anchor's store distrusts leaves
    /// issued after a date `leaf` comes after, unless the client (Apple) has another path to another anchor.
    static func renewed(_ path: ClientPath, leaf: ChainCertificate) -> ClientPath {
        var p = path
        p.chain = [leaf] + path.chain.dropFirst()
        p.alternatives = path.alternatives.map { [leaf] + $0.dropFirst() }
        guard p.trusted, let after = path.anchorDistrustAfter, leaf.notBefore > after, let anchor = path.chain.last else { return p }
        p.alternatives.removeAll { $0.last?.certSHA256 == anchor.certSHA256 }
        if !p.alternatives.isEmpty {
            p.chain = p.alternatives.removeFirst()
            p.anchorDistrustAfter = nil
            return p
        }
        p.trusted = false
        p.reason = "\(anchor.subject) is distrusted for certificates issued after \(SituationWords.day(after)); "
            + "the next leaf would be issued \(SituationWords.day(leaf.notBefore))"
        return p
    }
}
