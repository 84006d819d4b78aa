/// `lint --chain FILE` judged on each client's own paths (docs/reference.md, Clients and their stores): for every
/// policy of a set that names a client, the versions that reject the chain, the store changes ahead that would,
/// and the chain's hazards, as findings at the policy's line.
public enum ClientPathLintCheck {
    /// The findings for `chain` (a chain file's facts with its clients' paths, no host checked) against `sets`.
    ///
    /// - Parameter trustGiven: whether the stores were configured (`trust.ca_file`, `trust.client_stores`). A chain
    ///   that no version of a bundled store anchors at all is most likely a private PKI's: it is one warning that
    ///   says how to give its roots, not an error per policy.
    public static func findings(_ sets: [PolicySet], chain facts: ProbeFacts, chainFile: String, trustGiven: Bool = true) -> [LintFinding] {
        var out: [LintFinding] = []
        for set in sets where set.client != .none && facts.clientPaths.byClient[set.client] != nil {
            let paths = facts.clientPaths.byClient[set.client] ?? []
            if !trustGiven && !paths.contains(where: { $0.anchor != nil || $0.chain.last?.source == .store }) {
                out.append(LintFinding(rule: .clientPathRejected, severity: .warning, policySet: set.name, environment: nil, pattern: nil,
                                       file: set.file, line: set.nameLine,
                                       message: "\(chainFile) reaches no root of the bundled \(set.client.rawValue) store in any version: "
                                           + "\(paths.first?.reason ?? "no path"); a public app's clients reject it",
                                       hint: "for a private PKI, give its roots as trust.ca_file (or trust.client_stores) in --config"))
                continue
            }
            var hazardsSaid: Set<String> = []
            for envName in set.environments.keys.sorted() {
                guard let env = set.environments[envName] else { continue }
                var policies = env.rules.map { ($0.pattern.description, $0.line, $0.policy) }
                if let d = env.defaultPolicy { policies.append(("default", env.line, d)) }
                for (pattern, line, policy) in policies {
                    var alone = set
                    alone.environments = [envName: PolicyEnvironment(defaultPolicy: policy)]
                    guard let e = ClientPathEvaluator.evaluate(facts, policySet: alone, environment: envName, named: true,
                                                               now: facts.finishedAt) else { continue }
                    func finding(_ rule: LintRule, _ message: String, _ hint: String) -> LintFinding {
                        LintFinding(rule: rule, severity: rule.defaultSeverity, policySet: set.name, environment: envName,
                                    pattern: pattern, file: set.file, line: line, message: message, hint: hint)
                    }
                    for v in e.paths where v.verdict == .reject {
                        out.append(finding(.clientPathRejected, "\(set.name) (\(pattern)) \(chainFile): \(SituationWords.sentence(v))",
                                           "pin a key of the path those versions build, or serve a chain they anchor under a pinned key"))
                    }
                    for b in e.clientUpdates {
                        out.append(finding(.breaksOnClientUpdate,
                                           "\(set.name) (\(pattern)) \(chainFile): rejected on \(b.verdict.versionWords) once \(b.changeWords): \(SituationWords.pathWords(b.verdict))",
                                           b.verdict.anchorSPKI.map { "also pin sha256/\($0) before the change reaches users" } ?? "ship new pins before the change"))
                    }
                    for h in e.paths.flatMap(\.hazards) where hazardsSaid.insert(h).inserted {
                        out.append(finding(.servedChainHazard, "\(chainFile) for \(set.client.rawValue): \(h)",
                                           "serve the chain that ends below a root every client version holds, without expired CA certificates"))
                    }
                }
            }
        }
        return out
    }
}
