import Foundation

/// A certificate of a served chain that a valid CRL lists as revoked and that an app's matching pins match.
struct RevokedPin {
    /// The address serving it.
    let address: String
    /// Its position in the evaluated chain, 0 = leaf.
    let depth: Int
    /// The certificate.
    let certificate: ChainCertificate
    /// When the CA revoked it, and why.
    let at: Date
    let reason: RevocationReason?

    /// The first revoked certificate, over the target's addresses, that the app `e` pins.
    static func first(pinnedBy e: Evaluation, in r: TargetResult) -> RevokedPin? {
        for node in r.nodes where node.facts.success {
            let chain = node.facts.evaluatedChain
            guard let mine = node.evaluations.first(where: { $0.policySet == e.policySet && $0.environment == e.environment })
            else { continue }
            for c in node.facts.revocation where c.depth < chain.count {
                guard case .revoked(let at, let reason) = c.state,
                      mine.matchedPins.contains(where: { $0.depths.contains(c.depth) }) else { continue }
                return RevokedPin(address: node.address, depth: c.depth, certificate: chain[c.depth], at: at, reason: reason)
            }
        }
        return nil
    }
}

extension SituationWords {
    /// The app pins a certificate its CA revoked: critical, whatever the renewal date.
    func revoked(_ e: Evaluation, _ p: RevokedPin) -> Situation {
        let what = p.depth == 0 ? "leaf certificate" : "intermediate at depth \(p.depth)"
        let others = (e.policy?.pins ?? []).filter { $0.hash != p.certificate.spkiSHA256 && $0.hash != p.certificate.certSHA256 }
        let move = others.isEmpty
            ? "\(e.policySet) pins no other key: ship a release that pins the replacement chain's keys first, then "
                + "move \(name) to that chain"
            : "Move \(name) to a chain under an issuer \(e.policySet) also pins (\(others.prefix(3).map(\.prefixedHash).joined(separator: ", "))) "
                + "that its CA has not revoked, checked with pinguard plan --chain FILE before deploying it"
        return make(.revoked, .critical, e, due: nil,
                    summary: "\(Self.app(e)) pins the \(what) of \(name) (\(p.certificate.subject), serial \(p.certificate.serial), "
                        + "sha256/\(p.certificate.spkiSHA256)), which its CA revoked on \(Self.day(p.at)) "
                        + "(\((p.reason ?? .unspecified).name)): the CA will not renew under it, and clients that check "
                        + "revocation reject it now",
                    action: move + (p.depth == 0 ? " (re-issue the leaf with a new key after keyCompromise)." : "."))
    }
}
