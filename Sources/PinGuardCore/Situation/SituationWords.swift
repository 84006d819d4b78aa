import Foundation

/// The words of each situation: what is wrong, for whom, by when, and what to do, with the concrete values.
/// The same sentences reach the alert, the journal, `probe`, `plan` and the status page. Dates, never
/// "in N days", so the words change only when the facts do.
public struct SituationWords {
    let result: TargetResult
    let now: Date
    /// Whether the words may point at the journal: the service writes one, a command does not.
    var journal = true

    var name: String { result.target.name }

    static func day(_ d: Date) -> String { String(RFC3339.format(d).prefix(10)) }

    static func app(_ e: Evaluation) -> String { "\(e.policySet) (\(e.environment))" }

    func make(_ kind: Situation.Kind, _ severity: Situation.Severity, _ e: Evaluation?, file: String = "", due: Date?,
              summary: String, action: String) -> Situation {
        Situation(kind: kind, severity: severity, target: name, policySet: e?.policySet ?? "", environment: e?.environment ?? "",
                  apps: e.map { [$0.policySet + "/" + $0.environment] } ?? [], file: file, due: due, summary: summary, action: action)
    }

    func probeFailing() -> Situation {
        let error = result.nodes.compactMap(\.facts.error).first ?? "no chain"
        return make(.probeFailing, .warning, nil, due: nil,
                    summary: "pinguard cannot probe \(name): \(EchoedInput.quoted(error, limit: 120)); no verdict is known",
                    action: "Check that \(result.target.host):\(result.target.port) is reachable from pinguard"
                        + (journal ? ": journalctl PINGUARD_TARGET=\(name) PINGUARD_EVENT=probe_failed -x." : ", then probe it again."))
    }

    func expiresUnrenewed(_ s: CertificateSchedule) -> Situation {
        let lifetime = Int((s.lifetime / CertificateSchedule.day).rounded())
        let verb = s.notAfter <= now ? "expired" : "expires"
        return make(.expiresUnrenewed, .critical, nil, due: s.notAfter,
                    summary: "The certificate of \(name) \(verb) on \(Self.day(s.notAfter)) (a \(lifetime)-day certificate, "
                        + "due for renewal on \(Self.day(s.renewal))) and no renewal is in place: every client rejects it from then on",
                    action: "Renew \(name) now\(keyAdvice()) and deploy it before \(Self.day(s.notAfter)); check it with pinguard probe.")
    }

    func renewalOverdue(_ s: CertificateSchedule) -> Situation {
        let staged = result.outlook?.stagedFile
        let rejecting = result.forecasts.filter { $0.rejectRatio > 0 }.map(\.policySet)
        let action = staged.map { file in
            rejecting.isEmpty ? "Deploy the staged renewal \(file) to \(name) before \(Self.day(s.notAfter))."
                : "The staged renewal \(file) is rejected by \(rejecting.joined(separator: ", ")): re-issue it with a key they pin, "
                    + "then deploy it to \(name) before \(Self.day(s.notAfter))."
        }
            ?? "Check the renewal job of \(name) (certbot renew --dry-run, the cert-manager Certificate's status) and renew "
                + "before \(Self.day(s.notAfter))\(keyAdvice())."
        return make(.renewalOverdue, .warning, nil, file: staged ?? "", due: s.notAfter,
                    summary: "The renewal of \(name) was due on \(Self.day(s.renewal)); it still serves the certificate that "
                        + "expires on \(Self.day(s.notAfter))",
                    action: action)
    }

    func rejected(_ e: Evaluation) -> Situation {
        make(.rejected, .critical, e, due: nil,
             summary: "\(Self.app(e)) rejects the chain \(name) serves now\(nodes(rejecting: e)) (\(e.reason.rawValue)): its users cannot connect"
                + Self.versionsWords(e),
             action: rejectAction(e) + (journal ? "; journalctl PINGUARD_TARGET=\(name) PINGUARD_POLICY_SET=\(e.policySet) -x."
                                                 : "; then probe \(result.target.host) again."))
    }

    /// " on 1 of 3 addresses (a)" when only some addresses serve the rejected chain.
    func nodes(rejecting e: Evaluation) -> String {
        guard result.nodes.count > 1 else { return "" }
        let rejecting = result.nodes.filter { n in
            n.evaluations.contains { $0.policySet == e.policySet && $0.environment == e.environment && $0.verdict == .reject }
        }.map(\.address)
        return " on \(rejecting.count) of \(result.nodes.count) addresses (\(rejecting.prefix(4).joined(separator: ", ")))"
    }

    /// What puts an app that rejects back to accepting, by why it rejects.
    func rejectAction(_ e: Evaluation) -> String {
        switch e.reason {
        case .systemTrustFailed:
            let error = result.facts.trustError.map { " (\(EchoedInput.quoted($0, limit: 120)))" } ?? ""
            return "Fix the chain \(name) serves: it fails system trust or the hostname check\(error); serve the full chain of a CA the app trusts"
        case .ctNotCompliant:
            return "Serve a certificate with the SCTs \(e.policySet)'s CT policy requires: re-issue it from a CA that logs to CT, or send SCTs in the handshake"
        default:
            let pins = (e.policy?.pins ?? []).prefix(3).map(\.prefixedHash).joined(separator: ", ")
            return "Serve a chain \(e.policySet) pins again\(pins.isEmpty ? "" : " (\(pins))"): put back the previous key or CA, "
                + "or fix the node serving a stale chain"
        }
    }

    func backupPinInUse(_ e: Evaluation) -> Situation {
        let used = e.matchedPins.map(\.pin.prefixedHash).joined(separator: ", ")
        return make(.backupPinInUse, .warning, e, due: nil,
                    summary: "\(name) is served on a backup pin of \(Self.app(e)) (\(used)): a rotation to the backup key happened",
                    action: "Confirm the rotation of \(name) was intended; make \(used) the primary pin of \(e.policySet) "
                        + "and add a fresh backup pin in its next release.")
    }
}
