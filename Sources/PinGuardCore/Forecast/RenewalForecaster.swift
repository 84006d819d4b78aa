import Foundation

/// Judges a target's next renewal: every plausible next chain (the next key under each issuer of the pool,
/// with its path to a root) is judged by the same `Evaluator` that judges served chains, at the time of the
/// renewal, on each client's own paths under the issuer serving today (`RenewalForecaster+ClientPaths`). A new
/// key matches no pin; a reused or staged key is the key it is.
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
    /// served chain's evaluations), under `outlook`, but of those named in `except`; the forecasts `memo` holds
    /// for the same inputs are taken from it (`JudgementMemo`).
    public static func forecast(_ facts: ProbeFacts, outlook: RenewalOutlook, environment: String, namedSets: [String]?,
                                sets: [PolicySet], except: Set<String> = [], memo: JudgementMemo? = nil) -> [SetForecast] {
        guard let leaf = facts.evaluatedChain.first, !outlook.issuers.isEmpty else { return [] }
        // Made once, for the first set the memo does not answer.
        var candidates: [[ChainCertificate]]?
        var out: [SetForecast] = []
        let named = namedSets != nil
        // By index, each set read in place: iterating would copy every one.
        for k in sets.indices where namedSets?.contains(sets[k].name) ?? true && !except.contains(sets[k].name) {
            let selected = Evaluator.selection(sets[k], environment: environment, host: facts.host)
            if selected == nil && !named { continue }
            let inputs = JudgementMemo.Inputs(set: sets[k].name, environment: environment, named: named, selected: selected, outlook: outlook)
            if let known = memo?.forecast(facts, inputs) {
                if let f = known { out.append(f) }
                continue
            }
            if candidates == nil {
                candidates = outlook.issuers.map { nextChain(after: leaf, under: $0, outlook: outlook, served: facts.evaluatedChain) }
            }
            let f = forecast(facts, set: sets[k], selected: selected, leaf: leaf, candidates: candidates ?? [], outlook: outlook,
                             environment: environment, named: named)
            memo?.remember(facts, inputs, forecast: f)
            if let f { out.append(f) }
        }
        return out
    }

    /// One set's forecast: nil when it judged no candidate.
    static func forecast(_ facts: ProbeFacts, set: PolicySet, selected: Evaluator.Selection, leaf: ChainCertificate,
                         candidates: [[ChainCertificate]], outlook: RenewalOutlook, environment: String, named: Bool) -> SetForecast? {
        let judged = judge(facts, set: set, selected: selected, candidates: candidates, outlook: outlook, environment: environment,
                           named: named, pinsTodaysKey: (selected?.policy.pins ?? []).contains { Evaluator.hashMatches($0, leaf) })
        guard judged.count > 0 else { return nil }
        let ratio = Double(judged.rejectedBy.count) / Double(judged.count)
        var f = SetForecast(policySet: set.name, environment: environment, rejectRatio: ratio,
                            breakage: ratio > 0 ? outlook.nextRenewal : nil, uncoveredIssuers: judged.rejectedBy,
                            keyUnpinned: judged.keyUnpinned)
        f.rejectingVersions = judged.versions.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") }
        if ratio > 0 {
            f.safeKeys = safeKeys(facts, set: set, selected: selected, outlook: outlook, environment: environment, named: named)
        }
        return f
    }

    /// What one set concludes of the candidate next chains: the issuers under which it rejects, whether the next
    /// key is a reason (`pinsTodaysKey`, and the next key is none of its pins), how many candidates it judged, and
    /// the client's versions that reject one when only some do (nil: a candidate is rejected on every version).
    /// An app that pins only CAs of today's chain never rejects for the key.
    static func judge(_ facts: ProbeFacts, set: PolicySet, selected: Evaluator.Selection, candidates: [[ChainCertificate]],
                      outlook: RenewalOutlook, environment: String, named: Bool,
                      pinsTodaysKey: Bool) -> (rejectedBy: [String], keyUnpinned: Bool, count: Int, versions: [String]?) {
        var rejectedBy: [String] = []
        var keyUnpinned = false
        var count = 0
        var versions: [String]? = []
        // A served chain, trusted, with no SCTs: what a candidate is judged as (its own chain given apart).
        let next = ProbeFacts(host: facts.host, port: facts.port, servedChain: facts.evaluatedChain, trusted: true,
                              finishedAt: outlook.nextRenewal)
        for (option, chain) in zip(outlook.issuers, candidates) {
            guard !chain.isEmpty,
                  let e = decision(next, chain: chain, option: option, today: facts, set: set, selected: selected,
                                   environment: environment, named: named, now: outlook.nextRenewal),
                  e.verdict != .none else { continue }
            count += 1
            guard e.verdict == .reject else { continue }
            rejectedBy.append(option.name)
            let rejecting = e.paths.filter { $0.verdict == .reject }
            if rejecting.isEmpty || rejecting.count == e.paths.count {
                versions = nil
            } else if var list = versions {
                for v in rejecting where !list.contains(v.versionWords) { list.append(v.versionWords) }
                versions = list
            }
            if pinsTodaysKey, let pins = e.policy?.pins, !pins.contains(where: { Evaluator.hashMatches($0, chain[0]) }) {
                keyUnpinned = true
            }
        }
        return (rejectedBy, keyUnpinned, count, versions)
    }

    /// The next keys under which `set` accepts every plausible next chain: the current key kept, and each SPKI pin
    /// of the set that names no certificate served today (a pinned backup key to move to).
    static func safeKeys(_ facts: ProbeFacts, set: PolicySet, selected: Evaluator.Selection, outlook: RenewalOutlook,
                         environment: String, named: Bool) -> SafeKeys {
        guard let leaf = facts.evaluatedChain.first, outlook.key != .reuse || outlook.stagedLeaf != nil else { return SafeKeys() }
        func accepted(with key: String) -> Bool {
            var o = outlook
            o.stagedLeaf = nil
            let candidates = o.issuers.map { nextChain(after: leaf, under: $0, outlook: o, key: key, served: facts.evaluatedChain) }
            // Only the rejections count here, not their cause.
            let judged = judge(facts, set: set, selected: selected, candidates: candidates, outlook: o, environment: environment,
                               named: named, pinsTodaysKey: false)
            return judged.count > 0 && judged.rejectedBy.isEmpty
        }
        let policy = selected?.policy
        let served = Set(facts.evaluatedChain.map(\.spkiSHA256))
        // A CA's key (of today's chain or of an issuer the CA may use) is no key an operator can serve.
        let caKeys = served.union(outlook.issuers.flatMap { $0.chain.map(\.spkiSHA256) })
        var backups: [String] = []
        // A backup key is named by its SHA-256; a sha1/ pin names no key the forecast can put in a next chain; a pin
        // scoped to an intermediate or a root is a CA's key.
        for pin in policy?.pins ?? [] where pin.type == .spki && pin.algorithm == .sha256 && !caKeys.contains(pin.hash)
            && pin.scope != .intermediate && pin.scope != .root && !backups.contains(pin.hash) {
            if accepted(with: pin.hash) { backups.append(pin.hash) }
        }
        return SafeKeys(keepCurrent: accepted(with: leaf.spkiSHA256), pinnedBackups: backups)
    }

    /// The forecasts of every set in every environment it has (what `plan` judges a candidate by).
    public static func forecastEveryEnvironment(_ facts: ProbeFacts, outlook: RenewalOutlook, sets: [PolicySet]) -> [SetForecast] {
        let environments = Set(sets.flatMap(\.environments.keys)).sorted()
        return environments.flatMap { forecast(facts, outlook: outlook, environment: $0, namedSets: nil, sets: sets) }
    }

    /// The chain a renewal under `option` would serve: the next leaf, then the option's chain.
    static func nextChain(after leaf: ChainCertificate, under option: IssuerOption, outlook: RenewalOutlook,
                          key override: String? = nil, served: [ChainCertificate] = []) -> [ChainCertificate] {
        let lifetime = leaf.notAfter.timeIntervalSince(leaf.notBefore)
        let key: String
        let keySHA1: String?
        switch outlook.key {
        case .reuse: (key, keySHA1) = override.map { ($0, nil) } ?? (leaf.spkiSHA256, leaf.spkiSHA1)
        case .rotate, .unknown:
            (key, keySHA1) = override.map { ($0, nil) }
                ?? outlook.stagedLeaf.map { ($0.spkiSHA256, $0.spkiSHA1) } ?? (unknownKey, nil)
        }
        let issuer = option.chain.first
        var next = ChainCertificate(depth: 0, subject: leaf.subject, issuer: issuer?.subject ?? leaf.issuer,
                                    notBefore: outlook.nextRenewal, notAfter: outlook.nextRenewal.addingTimeInterval(lifetime),
                                    spkiSHA256: key, certSHA256: outlook.stagedLeaf?.certSHA256 ?? unknownCertificate)
        next.spkiSHA1 = keySHA1
        return [next] + path(of: option, served: served).enumerated().map { i, c in
            var c = c
            c.depth = i + 1
            if c.spkiSHA1 == nil { c.spkiSHA1 = knownSHA1(of: c, in: served) }
            return c
        }
    }

    /// The option's path to its root: the served chain's own from the issuer up when the issuer is the one
    /// serving today and the served path is the longer (a pool file may hold the issuing certificate alone),
    /// else the option's.
    static func path(of option: IssuerOption, served: [ChainCertificate]) -> [ChainCertificate] {
        guard let issuer = option.chain.first,
              let k = served.firstIndex(where: { $0.depth > 0 && $0.spkiSHA256 == issuer.spkiSHA256 && $0.subject == issuer.subject }),
              served.count - k > option.chain.count else { return option.chain }
        return Array(served[k...])
    }

    /// The SPKI SHA-1 of `certificate` when a certificate of `chain` has the same key (the catalog knows keys
    /// only by their SHA-256; a served certificate on the same key has the same SubjectPublicKeyInfo).
    static func knownSHA1(of certificate: ChainCertificate, in chain: [ChainCertificate]) -> String? {
        chain.first { $0.spkiSHA256 == certificate.spkiSHA256 && $0.spkiSHA1 != nil }?.spkiSHA1
    }
}
