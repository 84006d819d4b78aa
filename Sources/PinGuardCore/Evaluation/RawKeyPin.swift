/// A configured pin that is the SHA-256 of a certificate's raw public key bytes, not of its
/// SubjectPublicKeyInfo: the mistake of SDKs that hash `SecKeyCopyExternalRepresentation` output. Such a pin
/// looks valid and never matches in an SPKI-based client.
public struct RawKeyPin: Sendable, Equatable {
    /// The configured pin.
    public var pin: Pin
    /// Depth of the certificate whose raw key it hashes.
    public var depth: Int
    /// That certificate's subject.
    public var subject: String
    /// The SPKI pin of the same key: what an SPKI-based client compares.
    public var spkiSHA256: String

    /// Creates a finding.
    public init(pin: Pin, depth: Int, subject: String, spkiSHA256: String) {
        self.pin = pin
        self.depth = depth
        self.subject = subject
        self.spkiSHA256 = spkiSHA256
    }

    /// The configured `spki`/`ca` pins of `pins` that equal the raw-key hash of a certificate of `chain`.
    public static func find(_ pins: [Pin], in chain: [ChainCertificate]) -> [RawKeyPin] {
        var out: [RawKeyPin] = []
        for pin in pins where pin.type != .certificate {
            guard let c = chain.first(where: { $0.rawKeySHA256 == pin.hash && $0.rawKeySHA256 != $0.spkiSHA256 }),
                  !out.contains(where: { $0.pin.hash == pin.hash }) else { continue }
            out.append(RawKeyPin(pin: pin, depth: c.depth, subject: c.subject, spkiSHA256: c.spkiSHA256))
        }
        return out
    }

    /// One sentence for people.
    public var message: String {
        "pin \(pin.hash) is the SHA-256 of the raw public key of the certificate at depth \(depth) (\(EchoedInput.bare(subject, limit: 120))), not of its SubjectPublicKeyInfo: an SPKI-based client never matches it; its SPKI pin is \(spkiSHA256)"
    }
}
