import PinGuardCore

/// A certificate resource an Android configuration names (`<certificates src="@raw/NAME"/>`), as the caller found
/// it. The core reads no files: the CLI locates the resource and passes what it found.
public enum ImportResource: Sendable, Equatable {
    /// The base64 SPKI SHA-256 of each certificate in the resource file.
    case spki([String])
    /// Not found; the text says where it was looked for.
    case missing(String)
    /// Found but not a certificate; the text says why.
    case unreadable(String)

    /// The DER SubjectPublicKeyInfo of every certificate in a resource file: PEM (`-----BEGIN CERTIFICATE-----`
    /// blocks) or a single DER certificate. Throws a one-line reason when there is none.
    public static func subjectPublicKeyInfos(_ bytes: [UInt8]) throws(DER.Malformed) -> [ArraySlice<UInt8>] {
        guard bytes.count <= 1 << 20 else { throw DER.Malformed(message: "larger than 1 MiB; not a certificate") }
        if bytes.first == 0x30 {
            return [try DER.subjectPublicKeyInfo(ofCertificate: bytes)]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var out: [ArraySlice<UInt8>] = []
        var rest = Substring(text)
        while let b = rest.range(of: begin), let e = rest.range(of: end, range: b.upperBound..<rest.endIndex) {
            let body = rest[b.upperBound..<e.lowerBound].filter { !$0.isWhitespace }
            guard let der = ClientBase64.decode(String(body), .foundation) else {
                throw DER.Malformed(message: "a PEM certificate block is not base64")
            }
            out.append(try DER.subjectPublicKeyInfo(ofCertificate: der))
            rest = rest[e.upperBound...]
        }
        guard !out.isEmpty else { throw DER.Malformed(message: "neither a PEM certificate nor a DER certificate") }
        return out
    }
}
