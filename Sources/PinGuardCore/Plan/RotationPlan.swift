import Foundation

/// The forecast of a candidate's own next renewal, once it is served: its outlook and each set's forecast in
/// every environment.
public struct PlanForecast: Sendable {
    /// The outlook of the candidate's next renewal; nil when nothing is known of it.
    public var outlook: RenewalOutlook?
    /// The forecast of each set and environment.
    public var sets: [SetForecast]
}

/// Judges a candidate chain (one not served yet) for every app, environment and host it will serve,
/// exactly as a probe of that chain would be judged, so a deployment can be gated before it breaks an app.
public enum RotationPlan {
    /// The verdicts of every policy set and environment that has a policy for each host, and each host's
    /// forecast: each candidate (its facts verified for its host: hostname checks differ per host) is judged by
    /// `judge` as a target of its host in every environment a set has a policy for, exactly as the service
    /// judges a served chain. Hosts no set covers yield no verdict: no loaded app pins them.
    ///
    /// - Parameter servedToday: per host, the key and certificate hashes of the chain served now (from the
    ///   memory of served chains): a pin matching it is no reserve after the switch — the key being rotated
    ///   away from is not somewhere to rotate to, as `backup_pin_in_use` says of a served backup.
    public static func judged(_ candidates: [ProbeFacts], by judge: Judge, at time: Date,
                              servedToday: [String: Set<String>] = [:]) -> (verdicts: [PlanVerdict], forecasts: [String: PlanForecast]) {
        let environments = Set(judge.sets.flatMap(\.environments.keys)).sorted()
        var verdicts: [PlanVerdict] = []
        var forecasts: [String: PlanForecast] = [:]
        for facts in candidates {
            let results = environments.map { judge.judge(facts, target: Target(host: facts.host, port: facts.port, environment: $0), now: time) }
            for set in judge.sets.sorted(by: { $0.name < $1.name }) {
                for (environment, result) in zip(environments, results) {
                    guard var e = result.evaluations.first(where: { $0.policySet == set.name }) else { continue }
                    if let today = servedToday[facts.host] { e.reservePins = e.reservePins.filter { !today.contains($0.hash) } }
                    let line = set.environments[environment]?.rules.first { $0.pattern.description == e.pattern }?.line
                    verdicts.append(PlanVerdict(host: facts.host, policySet: set.name, version: set.version, environment: environment,
                                                evaluation: e, file: set.file, line: line ?? set.nameLine))
                }
            }
            forecasts[facts.host] = PlanForecast(outlook: results.first?.outlook, sets: results.flatMap(\.forecasts))
        }
        return (verdicts, forecasts)
    }

    /// The longest validity a publicly trusted TLS certificate may have (CA/Browser Forum, 397 days): the
    /// lifetime assumed for a leaf that is only a key so far.
    public static let assumedLeafLifetime: TimeInterval = 397 * 86_400

    /// Facts for a candidate that is a key, not a certificate yet: a leaf with that key, issued at `time`
    /// for `assumedLeafLifetime`, under `issuers` (the CA chain it will be signed under, if known). A CA
    /// has not signed it yet, so system trust is assumed to pass: the plan judges the pins.
    public static func keyCandidate(host: String, spkiSHA256: String, issuers: [ChainCertificate], at time: Date) -> ProbeFacts {
        let leaf = ChainCertificate(depth: 0, subject: "CN=\(host) (candidate key)", issuer: issuers.first?.subject ?? "",
                                    notBefore: time, notAfter: time.addingTimeInterval(assumedLeafLifetime),
                                    spkiSHA256: spkiSHA256, certSHA256: "")
        var chain = [leaf]
        for (i, c) in issuers.enumerated() {
            var ca = c
            ca.depth = i + 1
            chain.append(ca)
        }
        return ProbeFacts(host: host, port: 443, servedChain: chain, verifiedChain: chain, trusted: true, finishedAt: time)
    }

    /// Hosts of `candidates` that no verdict covers.
    public static func unpinnedHosts(_ candidates: [ProbeFacts], verdicts: [PlanVerdict]) -> [String] {
        let covered = Set(verdicts.map(\.host))
        return candidates.map(\.host).filter { !covered.contains($0) }
    }

    /// 0 when every client accepts, 1 when any rejects.
    public static func exitStatus(_ verdicts: [PlanVerdict]) -> Int32 {
        verdicts.allSatisfy(\.accepts) ? 0 : 1
    }
}
