import Foundation

/// Facts about one certificate, as produced by the probe: no parsing judgement, just what was seen.
///
/// Only `depth` and `source` (where the certificate sits and who supplied it) are held inline; the facts
/// that follow from the certificate's bytes live in one shared, copy-on-write `CertificateFacts`, so a copy
/// of the value (the same certificate in a served and a verified chain, or in the chains of many targets)
/// costs 24 bytes and no new strings. Reading and writing the properties behaves as on a plain struct.
public struct ChainCertificate: Sendable, Equatable {
    /// Position in the chain, 0 = leaf.
    public var depth: Int
    private var facts: CertificateFacts
    /// Served by the peer or added from the trust store.
    public var source: CertificateSource

    /// Creates certificate facts.
    public init(depth: Int, subject: String, issuer: String, serial: String = "", notBefore: Date, notAfter: Date,
                spkiSHA256: String, certSHA256: String, keyType: String = "", isCA: Bool = false,
                selfIssued: Bool = false, source: CertificateSource = .served) {
        self.depth = depth
        self.facts = CertificateFacts(subject: subject, issuer: issuer, serial: serial, notBefore: notBefore, notAfter: notAfter,
                                      spkiSHA256: spkiSHA256, certSHA256: certSHA256, rawKeySHA256: nil, keyType: keyType,
                                      isCA: isCA, selfIssued: selfIssued)
        self.source = source
    }

    /// Subject distinguished name (RFC 2253).
    public var subject: String {
        get { facts.subject }
        set { unique().subject = newValue }
    }
    /// Issuer distinguished name (RFC 2253).
    public var issuer: String {
        get { facts.issuer }
        set { unique().issuer = newValue }
    }
    /// Serial number, uppercase hex.
    public var serial: String {
        get { facts.serial }
        set { unique().serial = newValue }
    }
    /// Start of validity.
    public var notBefore: Date {
        get { facts.notBefore }
        set { unique().notBefore = newValue }
    }
    /// End of validity.
    public var notAfter: Date {
        get { facts.notAfter }
        set { unique().notAfter = newValue }
    }
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo as served.
    public var spkiSHA256: String {
        get { facts.spkiSHA256 }
        set { unique().spkiSHA256 = newValue }
    }
    /// Base64 SHA-256 of the DER certificate.
    public var certSHA256: String {
        get { facts.certSHA256 }
        set { unique().certSHA256 = newValue }
    }
    /// Base64 SHA-256 of the raw public key bytes (the BIT STRING inside the SPKI), which some SDKs pin by
    /// mistake; nil when unknown.
    public var rawKeySHA256: String? {
        get { facts.rawKeySHA256 }
        set { unique().rawKeySHA256 = newValue }
    }
    /// Base64 SHA-1 of the DER SubjectPublicKeyInfo, what OkHttp's `sha1/` pins hold; nil when unknown (a
    /// certificate known only by its SHA-256 hashes, as in the issuer catalog).
    public var spkiSHA1: String? {
        get { facts.spkiSHA1 }
        set { unique().spkiSHA1 = newValue }
    }
    /// The keyIdentifier of the Authority Key Identifier extension, uppercase hex; nil when the certificate
    /// has none. With `serial` it names the certificate to its CA's renewal information (`RenewalInfoID`).
    public var authorityKeyID: String? {
        get { facts.authorityKeyID }
        set { unique().authorityKeyID = newValue }
    }
    /// Key algorithm and size as OpenSSL names them, e.g. `RSA-2048`, `RSA-PSS-2048`, `EC-256`, `ED25519-256`.
    public var keyType: String {
        get { facts.keyType }
        set { unique().keyType = newValue }
    }
    /// Whether the certificate's basic constraints mark it as a CA.
    public var isCA: Bool {
        get { facts.isCA }
        set { unique().isCA = newValue }
    }
    /// Whether subject and issuer are the same name (a self-issued certificate, e.g. a root).
    public var selfIssued: Bool {
        get { facts.selfIssued }
        set { unique().selfIssued = newValue }
    }

    /// The http and https URIs of the certificate's CRL distribution points, in the certificate's order.
    public var crlDistributionPoints: [String] {
        get { facts.crlDistributionPoints }
        set { unique().crlDistributionPoints = newValue }
    }
    /// The DER SubjectPublicKeyInfo, kept for CA certificates only (the key that verifies the CRLs they
    /// sign); nil for leaves, so 100,000 results do not hold 100,000 keys.
    public var publicKeyDER: [UInt8]? {
        get { facts.publicKeyDER }
        set { unique().publicKeyDER = newValue }
    }

    /// The facts, copied first when another value shares them (copy-on-write).
    private mutating func unique() -> CertificateFacts {
        if !isKnownUniquelyReferenced(&facts) { facts = facts.copy() }
        return facts
    }

    /// Whether `other` holds the very same facts object as this value (not merely equal facts): true for
    /// copies of one value and for certificates a `ResultStore` shared, whatever their depth and source.
    public func sharesFacts(with other: ChainCertificate) -> Bool { facts === other.facts }

    /// Whether no other value holds this value's facts: a table of certificates drops the entries for which
    /// this is true, as nothing but the table uses them any more.
    public mutating func holdsFactsAlone() -> Bool { isKnownUniquelyReferenced(&facts) }

    /// Same depth, source and facts.
    public static func == (a: ChainCertificate, b: ChainCertificate) -> Bool {
        a.depth == b.depth && a.source == b.source && a.facts.sameFacts(as: b.facts)
    }
}
