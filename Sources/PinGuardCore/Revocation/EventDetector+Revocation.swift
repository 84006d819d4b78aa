import Foundation

extension EventDetector {
    /// `certificate_revoked` once when a valid CRL lists a certificate of the address's evaluated chain as
    /// revoked (again after it was not listed, or for another certificate).
    static func reportRevocation(_ node: NodeResult, who: String, fields: EventFields, memory m: inout NodeMemory,
                                 into out: inout [JournalEntry]) {
        let chain = node.facts.evaluatedChain
        var now: [String] = []
        for r in node.facts.revocation {
            guard case .revoked(let at, let reason) = r.state, r.depth < chain.count else { continue }
            let certificate = chain[r.depth]
            let key = "\(r.depth):\(certificate.certSHA256)"
            now.append(key)
            guard !m.revoked.contains(key) else { continue }
            let pinnedBy = Self.setsPinning(depth: r.depth, of: node)
            let reasonName = (reason ?? .unspecified).name
            let apps = pinnedBy.isEmpty ? "no policy set pins it" : "pinned by \(pinnedBy.joined(separator: ", "))"
            out.append(JournalEntry(
                event: .certificateRevoked,
                message: "\(who): the certificate at depth \(r.depth) (\(certificate.subject), serial \(certificate.serial)) was revoked at \(RFC3339.format(at)) (\(reasonName)) by the CRL at \(r.url); \(apps)",
                fields: fields + [("PINGUARD_DEPTH", String(r.depth)), ("PINGUARD_SUBJECT", certificate.subject),
                                  ("PINGUARD_SERIAL", certificate.serial), ("PINGUARD_REVOKED_AT", RFC3339.format(at)),
                                  ("PINGUARD_REVOCATION_REASON", reasonName), ("PINGUARD_CRL_URL", r.url),
                                  ("PINGUARD_PINNED_BY", pinnedBy.joined(separator: ","))]))
        }
        m.revoked = now
    }

    /// The policy sets (`set/environment`) whose matching pins match the certificate at `depth`.
    static func setsPinning(depth: Int, of node: NodeResult) -> [String] {
        node.evaluations.filter { e in e.matchedPins.contains { $0.depths.contains(depth) } }.map { "\($0.policySet)/\($0.environment)" }
    }
}
