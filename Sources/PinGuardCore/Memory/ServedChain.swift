/// The facts of one chain a target served at one address, as the state remembers them.
///
/// Two chains are the same chain when their leaf and issuing certificates are the same (`identity`);
/// everything else follows from those two certificates. Times are Unix seconds.
public struct ServedChain: Hashable, Sendable {
    /// The leaf's serial number, hex as the probe reports it.
    public var leafSerial: String
    /// SHA-256 of the leaf certificate (DER).
    public var leafSHA256: ChainDigest
    /// SHA-256 of the leaf's SubjectPublicKeyInfo (DER): the key.
    public var leafSPKISHA256: ChainDigest
    /// The leaf's notBefore, Unix seconds.
    public var notBefore: Int64
    /// The leaf's notAfter, Unix seconds.
    public var notAfter: Int64
    /// The subject of the certificate that issued the leaf.
    public var issuerSubject: String
    /// SHA-256 of the issuing certificate's SubjectPublicKeyInfo.
    public var issuerSPKISHA256: ChainDigest
    /// SHA-256 of the issuing certificate.
    public var issuerSHA256: ChainDigest
    /// SHA-256 of the trust anchor's SubjectPublicKeyInfo; nil when the chain did not verify to one.
    public var anchorSPKISHA256: ChainDigest?

    /// Creates the facts of a served chain.
    public init(leafSerial: String, leafSHA256: ChainDigest, leafSPKISHA256: ChainDigest, notBefore: Int64,
                notAfter: Int64, issuerSubject: String, issuerSPKISHA256: ChainDigest, issuerSHA256: ChainDigest,
                anchorSPKISHA256: ChainDigest? = nil) {
        self.leafSerial = leafSerial
        self.leafSHA256 = leafSHA256
        self.leafSPKISHA256 = leafSPKISHA256
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.issuerSubject = issuerSubject
        self.issuerSPKISHA256 = issuerSPKISHA256
        self.issuerSHA256 = issuerSHA256
        self.anchorSPKISHA256 = anchorSPKISHA256
    }

    /// What makes two chains at one address distinct: the leaf and the issuing certificate.
    public var identity: ChainIdentity {
        ChainIdentity(leafSHA256: leafSHA256, issuerSHA256: issuerSHA256)
    }
}

/// The leaf and issuing certificate digests that tell two chains at one address apart.
public struct ChainIdentity: Hashable, Sendable {
    /// SHA-256 of the leaf certificate.
    public var leafSHA256: ChainDigest
    /// SHA-256 of the issuing certificate.
    public var issuerSHA256: ChainDigest

    /// Creates an identity from the two certificate digests.
    public init(leafSHA256: ChainDigest, issuerSHA256: ChainDigest) {
        self.leafSHA256 = leafSHA256
        self.issuerSHA256 = issuerSHA256
    }
}
