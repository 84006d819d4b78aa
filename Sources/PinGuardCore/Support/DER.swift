/// Minimal DER walking, pure Swift: the exact SubjectPublicKeyInfo bytes a certificate carries (pins hash the
/// server's own bytes, so the SPKI is sliced out rather than re-encoded), and the elements a CRL's entries are
/// walked by without parsing a million of them (PinGuardCrypto/CRL).
public enum DER {
    /// Why a certificate could not be walked.
    public struct Malformed: Error, Sendable, Equatable {
        /// What was wrong.
        public var message: String

        /// A failure saying `message`.
        public init(message: String) { self.message = message }
    }

    /// One element: its tag and where its header, content and end lie in the bytes.
    public struct Element: Sendable, Equatable {
        /// The identifier octet.
        public var tag: UInt8
        /// Where the element starts (its tag).
        public var headerStart: Int
        /// Where its content starts.
        public var contentStart: Int
        /// One past its last byte.
        public var end: Int
    }

    /// The element at `offset`, which with its content must end by `limit`; lengths of up to four octets.
    public static func element(_ bytes: [UInt8], at offset: Int, limit: Int) throws(Malformed) -> Element {
        guard offset + 2 <= limit else { throw Malformed(message: "truncated element at byte \(offset)") }
        let tag = bytes[offset]
        var i = offset + 1
        var length = Int(bytes[i])
        i += 1
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard count >= 1, count <= 4, i + count <= limit else {
                throw Malformed(message: "bad length at byte \(offset)")
            }
            length = 0
            for _ in 0..<count {
                length = (length << 8) | Int(bytes[i])
                i += 1
            }
        }
        guard i + length <= limit else { throw Malformed(message: "element at byte \(offset) overruns its container") }
        return Element(tag: tag, headerStart: offset, contentStart: i, end: i + length)
    }

    /// The DER SubjectPublicKeyInfo of an X.509 certificate, byte for byte as encoded in it.
    public static func subjectPublicKeyInfo(ofCertificate der: [UInt8]) throws(Malformed) -> ArraySlice<UInt8> {
        let cert = try element(der, at: 0, limit: der.count)
        guard cert.tag == 0x30 else { throw Malformed(message: "certificate is not a SEQUENCE") }
        let tbs = try element(der, at: cert.contentStart, limit: cert.end)
        guard tbs.tag == 0x30 else { throw Malformed(message: "tbsCertificate is not a SEQUENCE") }
        var cursor = tbs.contentStart
        var field = try element(der, at: cursor, limit: tbs.end)
        if field.tag == 0xa0 {  // [0] EXPLICIT version
            cursor = field.end
            field = try element(der, at: cursor, limit: tbs.end)
        }
        // serialNumber, signature, issuer, validity, subject, then subjectPublicKeyInfo.
        for _ in 0..<5 {
            cursor = field.end
            field = try element(der, at: cursor, limit: tbs.end)
        }
        guard field.tag == 0x30 else { throw Malformed(message: "subjectPublicKeyInfo is not a SEQUENCE") }
        return der[field.headerStart..<field.end]
    }

    /// The public key bytes inside a DER SubjectPublicKeyInfo: the content of its BIT STRING without the
    /// unused-bits byte (an RSAPublicKey for RSA, the uncompressed point for EC keys). This is what
    /// `SecKeyCopyExternalRepresentation` returns and what some SDKs hash instead of the whole SPKI.
    public static func subjectPublicKeyBits(ofSPKI spki: ArraySlice<UInt8>) throws(Malformed) -> ArraySlice<UInt8> {
        let bytes = Array(spki)
        let outer = try element(bytes, at: 0, limit: bytes.count)
        guard outer.tag == 0x30 else { throw Malformed(message: "subjectPublicKeyInfo is not a SEQUENCE") }
        let algorithm = try element(bytes, at: outer.contentStart, limit: outer.end)
        let key = try element(bytes, at: algorithm.end, limit: outer.end)
        guard key.tag == 0x03, key.end > key.contentStart, bytes[key.contentStart] == 0 else {
            throw Malformed(message: "subjectPublicKey is not a whole-byte BIT STRING")
        }
        let start = spki.startIndex
        return spki[(start + key.contentStart + 1)..<(start + key.end)]
    }
}
