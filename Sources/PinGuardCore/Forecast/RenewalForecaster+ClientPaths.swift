import Foundation

/// The next chain judged on the path each client builds: a renewal under the issuer serving today is served as
/// today's chain is, so each client builds, version by version, the path it builds today above the leaf; under
/// another issuer, the path each client builds above that issuer (`IssuerOption.clientPaths`, from the issuer's
/// certificates as the CA serves them). The next leaf is judged against what each anchor's store says of leaves
/// issued on its date (a distrust date passed). An issuer whose certificates are not known keeps the one path
/// the outlook gives it (docs/reference.md, Forecast).
extension RenewalForecaster {
    /// The decision of `set` on the next chain `chain` under `option`: on each client path when the facts hold
    /// the set's client's paths and the option is the issuer those paths take above today's leaf, or when the
    /// option carries the client's paths above it, else on the chain itself.
    static func decision(_ next: ProbeFacts, chain: [ChainCertificate], option: IssuerOption, today: ProbeFacts, set: PolicySet,
                         selected: Evaluator.Selection, environment: String, named: Bool, now: Date) -> Evaluation? {
        if set.client != .none, let leaf = chain.first,
           let paths = clientPaths(of: today, client: set.client, nextLeaf: leaf, issuer: option.chain.first)
               ?? option.clientPaths.flatMap({ clientPaths(above: $0, client: set.client, nextLeaf: leaf) }) {
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
        return renewed(today.clientPaths, client: client, nextLeaf: nextLeaf, above: false)
    }

    /// The paths of `client` above an issuer (`IssuerOption.clientPaths`) with `nextLeaf` below each; nil when
    /// they hold none of the client's.
    static func clientPaths(above paths: ClientPaths, client: CTClient, nextLeaf: ChainCertificate) -> ClientPaths? {
        guard paths.byClient[client]?.isEmpty == false else { return nil }
        return renewed(paths, client: client, nextLeaf: nextLeaf, above: true)
    }

    /// `paths` of `client` with `nextLeaf` in place of today's leaf, or below each path's first certificate when
    /// `above` (paths that start at the issuer).
    static func renewed(_ paths: ClientPaths, client: CTClient, nextLeaf: ChainCertificate, above: Bool) -> ClientPaths {
        var out = ClientPaths(byClient: [client: (paths.byClient[client] ?? []).map { renewed($0, leaf: nextLeaf, above: above) }],
                              inUse: paths.inUse)
        out.versionNames = paths.versionNames
        if let upcoming = paths.upcoming[client], !upcoming.isEmpty {
            out.upcoming[client] = upcoming.map { change in
                var c = change
                c.paths = change.paths.map { renewed($0, leaf: nextLeaf, above: above) }
                return c
            }
        }
        return out
    }

    /// `path` with `leaf` in place of today's leaf (below its first certificate when `above`): no longer trusted
    /// when its anchor's store distrusts leaves issued after a date `leaf` comes after, unless the client (Apple)
    /// has another path to another anchor.
    static func renewed(_ path: ClientPath, leaf: ChainCertificate, above: Bool = false) -> ClientPath {
        var p = path
        func below(_ chain: [ChainCertificate]) -> [ChainCertificate] {
            guard above else { return [leaf] + chain.dropFirst() }
            // Each certificate one further from the leaf than it was from the issuer.
            return [leaf] + chain.map { c in
                var c = c
                c.depth += 1
                return c
            }
        }
        p.chain = below(path.chain)
        p.alternatives = path.alternatives.map(below)
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
