import Foundation

/// A certificate file of `files:` that expires with nothing newer in place: the situation `expires_unrenewed`
/// of the file's host, with the same lifetime-relative threshold as a served certificate (7 days or a
/// quarter of its lifetime, whichever is shorter), naming the file and the host.
///
/// Only for a host no target probes: where a target probes the host, the target's own situation tells the
/// story (its served certificate expiring, or a staged file rejected), so one problem stays one alert.
public enum FileExpiry {
    /// The situations of `files` (the judged entries of `files:`) at `now`; `probedHosts` are the hosts the
    /// configuration's targets probe.
    public static func situations(_ files: [TargetResult], probedHosts: Set<String>, now: Date) -> [Situation] {
        let candidates = files.filter { !probedHosts.contains($0.target.host) && $0.facts.success && !$0.facts.evaluatedChain.isEmpty }
        var newest: [String: TargetResult] = [:]
        for r in candidates {
            if let kept = newest[r.target.host], SituationAssessor.earliest(kept.facts.evaluatedChain) >= SituationAssessor.earliest(r.facts.evaluatedChain) {
                continue
            }
            newest[r.target.host] = r
        }
        return newest.keys.sorted().compactMap { host in newest[host].flatMap { situation($0, now: now) } }
    }

    /// The situation of the newest file of a host, when its certificate is within its critical window.
    static func situation(_ r: TargetResult, now: Date) -> Situation? {
        let chain = r.facts.evaluatedChain
        guard let leaf = chain.first else { return nil }
        let notAfter = SituationAssessor.earliest(chain)
        let schedule = CertificateSchedule(notBefore: leaf.notBefore, notAfter: notAfter,
                                           renewal: RenewalForecaster.nextRenewal(of: leaf, before: nil))
        guard schedule.isCritical(at: now) else { return nil }
        let lifetime = Int((schedule.lifetime / CertificateSchedule.day).rounded())
        let day = SituationWords.day(notAfter)
        let verb = notAfter <= now ? "expired" : "expires"
        let apps = r.evaluations.filter { $0.verdict != .none }.map { "\($0.policySet)/\($0.environment)" }
        let file = r.target.name, host = r.target.host
        return Situation(kind: .expiresUnrenewed, severity: .critical, target: host, policySet: "", environment: "", apps: apps,
                         file: file, due: notAfter,
                         summary: "The certificate file \(file) for \(host) \(verb) on \(day) (a \(lifetime)-day certificate) and "
                             + "nothing newer is in place: no later certificate for \(host) in files:, and no target probes \(host)",
                         action: "Renew the certificate in \(file) and deploy it before \(day) (certbot renew, or the cert-manager "
                             + "Certificate's status for a mounted secret); if \(host) no longer uses \(file), take it out of files:.")
    }
}
