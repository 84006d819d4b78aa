import COpenSSL
import PinGuardCore

/// Reads a chain file (PEM bundle or DER certificate) into the SPKI and raw-key hashes of each certificate,
/// for `lint --chain`.
public enum CertificateKeyHashReader {
    /// The hashes of every certificate in `bytes`, in file order; throws on a broken file or certificate.
    public static func load(_ bytes: [UInt8], file: String) throws(ProbeError) -> [CertificateKeyHashes] {
        let certificates = try CertificateFile.parse(bytes, name: file)
        defer { certificates.forEach { X509_free($0) } }
        var out: [CertificateKeyHashes] = []
        for x in certificates {
            let der = try CertificateFacts.derBytes(x)
            let spki: ArraySlice<UInt8>
            let raw: ArraySlice<UInt8>
            do {
                spki = try DER.subjectPublicKeyInfo(ofCertificate: der)
                raw = try DER.subjectPublicKeyBits(ofSPKI: spki)
            } catch {
                throw ProbeError("\(file): certificate \(out.count + 1): \(error.message)")
            }
            out.append(CertificateKeyHashes(position: out.count, subject: CertificateFacts.name(X509_get_subject_name(x)),
                                            spkiSHA256: CertificateFacts.sha256Base64(spki),
                                            rawKeySHA256: CertificateFacts.sha256Base64(raw)))
        }
        return out
    }
}
