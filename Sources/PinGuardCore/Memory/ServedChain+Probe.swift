import Foundation

extension ServedChain {
    /// The facts the memory keeps of a successful probe's chain: the leaf, the certificate that issued it
    /// (from the verified path when OpenSSL built one, else the next certificate the server sent) and the
    /// trust anchor of a trusted chain; nil when the probe got no chain or its hashes do not parse.
    ///
    /// A leaf sent alone, whose issuer is unknown, gets the all-zero digest for the issuer's key and
    /// certificate: every such chain of one target has the same (unknown) issuer.
    public init?(_ facts: ProbeFacts) {
        guard facts.success, let leaf = facts.servedChain.first,
              let leafSHA256 = ChainDigest(base64: leaf.certSHA256),
              let leafSPKI = ChainDigest(base64: leaf.spkiSHA256) else { return nil }
        let issuing = facts.verifiedChain.count > 1 ? facts.verifiedChain[1] : facts.servedChain.dropFirst().first
        let unknown = ChainDigest(words: (0, 0, 0, 0))
        let anchor = facts.trusted && facts.verifiedChain.count > 1 ? facts.verifiedChain.last : nil
        self.init(leafSerial: leaf.serial, leafSHA256: leafSHA256, leafSPKISHA256: leafSPKI,
                  notBefore: Int64(leaf.notBefore.timeIntervalSince1970), notAfter: Int64(leaf.notAfter.timeIntervalSince1970),
                  issuerSubject: issuing?.subject ?? leaf.issuer,
                  issuerSPKISHA256: issuing.flatMap { ChainDigest(base64: $0.spkiSHA256) } ?? unknown,
                  issuerSHA256: issuing.flatMap { ChainDigest(base64: $0.certSHA256) } ?? unknown,
                  anchorSPKISHA256: anchor.flatMap { ChainDigest(base64: $0.spkiSHA256) })
    }

    /// The issuer's common name (`CN=R11, O=Let's Encrypt, C=US` → `R11`), else its whole subject.
    public var issuerName: String { Self.commonName(issuerSubject) }

    /// The `CN` of a distinguished name as OpenSSL prints it (`CN=…, O=…` or `/C=…/CN=…`), else the name.
    /// The separators the name holds are tried in turn (`, `, `,`, `/`), each part trimmed of blanks (a
    /// `CN=…,O=…` name is split at its commas, not taken whole).
    public static func commonName(_ dn: String) -> String {
        for separator in [", ", ",", "/"] where dn.contains(separator) {
            for part in dn.split(separator: separator, omittingEmptySubsequences: false) {
                var p = part
                while let c = p.first, isBlank(c) { p = p.dropFirst() }
                while let c = p.last, isBlank(c) { p = p.dropLast() }
                if p.hasPrefix("CN=") { return String(p.dropFirst(3)) }
            }
        }
        return dn.hasPrefix("CN=") ? String(dn.dropFirst(3)) : dn
    }

    private static func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" }
}
