import COpenSSL
import Foundation
import PinGuardCore

extension SCTVerifier {
    /// The largest SCT list the TLS extension can carry (its length is two bytes).
    public static let maxListBytes = 65_535

    /// The SCTs of `list`, the bytes of a `signed_certificate_timestamp` TLS extension as a server sends
    /// them, decoded by OpenSSL as a handshake decodes them and checked for the first certificate of `leaf`
    /// at `time`: the path a served list takes after the handshake, for tests and the fuzzer. A list that does
    /// not decode, or is longer than the extension allows, gives no SCTs.
    public static func extensionSCTs(_ list: [UInt8], leaf: [UInt8], keyring: CTLogKeyring, at time: Date) throws(ProbeError) -> [ObservedSCT] {
        let certificates = try CertificateFile.parse(leaf, name: "leaf certificate")
        defer { certificates.forEach { X509_free($0) } }
        guard let x = certificates.first, list.count <= maxListBytes else { return [] }
        let scts: OpaquePointer? = list.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return o2i_SCT_LIST(nil, &p, buffer.count)
        }
        guard let scts else {
            OpenSSLErrorQueue.clear()
            return []
        }
        defer { SCT_LIST_free(scts) }
        for i in 0..<pg_sk_SCT_num(scts) {
            if let sct = pg_sk_SCT_value(scts, i) { _ = SCT_set_source(sct, SCT_SOURCE_TLS_EXTENSION) }
        }
        return verify(scts, leaf: x, issuer: nil, keyring: keyring, at: time)
    }
}
