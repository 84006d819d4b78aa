import Foundation

extension CertificateRevocation {
    /// One line for people: `depth 1: REVOKED at 2026-05-15T00:00:00Z (keyCompromise), CRL http://…`.
    public var text: String {
        let what: String
        switch state {
        case .revoked(let at, let reason): what = "REVOKED at \(RFC3339.format(at)) (\((reason ?? .unspecified).name))"
        case .notRevoked(let next): what = "not revoked (CRL good until \(RFC3339.format(next)))"
        case .unknown(let why): what = "unknown (\(why.rawValue))"
        }
        return "depth \(depth): \(what), CRL \(url.isEmpty ? "-" : url)"
    }

    /// The JSON object of `probe --json`: depth, url, state, and the revocation time and reason, the list's
    /// nextUpdate or why no list answers.
    public var jsonObject: [String: Any] {
        var o: [String: Any] = ["depth": depth, "url": url, "state": state.word]
        switch state {
        case .revoked(let at, let reason):
            o["revoked_at"] = RFC3339.format(at)
            o["reason"] = (reason ?? .unspecified).name
        case .notRevoked(let next): o["next_update"] = RFC3339.format(next)
        case .unknown(let why): o["unknown_reason"] = why.rawValue
        }
        return o
    }
}

extension ProbeFacts {
    /// The revocation lines of the chain, under a `revocation (CRLs, reported only):` heading; nothing when
    /// no certificate names a distribution point or CRLs are not checked.
    public var revocationText: String {
        guard !revocation.isEmpty else { return "" }
        return "  revocation (CRLs, reported only; no verdict depends on it):\n"
            + revocation.map { "    \($0.text)\n" }.joined()
    }
}
